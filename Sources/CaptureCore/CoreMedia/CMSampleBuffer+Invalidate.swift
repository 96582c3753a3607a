import Foundation

// CMSampleBuffer.h's invalidation callback and handler. CMSampleBufferInvalidate calls the
// one set, once, on the invalidating thread and with no lock held; ordinary release of a
// buffer does not call it. A recycled capture buffer starts without one.

/// Called by `CMSampleBufferInvalidate` with the buffer and the refcon given to
/// `CMSampleBufferSetInvalidateCallback`. (Apple's is a `@convention(c)` function; a
/// Swift class is not representable in C on Linux, so it is a Swift function type here, and
/// a C-style function or a closure literal passes as on Apple.)
public typealias CMSampleBufferInvalidateCallback = (CMSampleBuffer, UInt64) -> Void

/// Called by `CMSampleBufferInvalidate` with the buffer being invalidated.
public typealias CMSampleBufferInvalidateHandler = (CMSampleBuffer) -> Void

/// Sets the function `CMSampleBufferInvalidate` calls, with `invalidateRefCon`.
///
/// A buffer has at most one invalidation callback or handler: a second one is refused
/// (`paramErr`) and the first stays. An invalidated buffer gives
/// `kCMSampleBufferError_Invalidated`.
@discardableResult
public func CMSampleBufferSetInvalidateCallback(
    _ sbuf: CMSampleBuffer, callback invalidateCallback: @escaping CMSampleBufferInvalidateCallback, refcon invalidateRefCon: UInt64
) -> OSStatus {
    sbuf.setInvalidation { invalidateCallback($0, invalidateRefCon) }
}

/// Sets the block `CMSampleBufferInvalidate` calls; the same rules as
/// `CMSampleBufferSetInvalidateCallback`.
@discardableResult
public func CMSampleBufferSetInvalidateHandler(
    _ sbuf: CMSampleBuffer, invalidateHandler: @escaping CMSampleBufferInvalidateHandler
) -> OSStatus {
    sbuf.setInvalidation(invalidateHandler)
}

extension CMSampleBuffer {
    /// Sets the invalidation handler (the Swift overlay's method); an error `body` throws is
    /// dropped, as `CMSampleBufferInvalidate` has nowhere to report it. Throws the status of
    /// `CMSampleBufferSetInvalidateHandler`.
    public func setInvalidateHandler(_ body: @escaping (CMSampleBuffer) throws -> Void) throws {
        try CMSampleBuffer.check(setInvalidation { try? body($0) })
    }

    /// Stores `handler` unless the buffer is invalidated or already has one.
    func setInvalidation(_ handler: @escaping (CMSampleBuffer) -> Void) -> OSStatus {
        withState {
            guard !$0.invalidated else { return kCMSampleBufferError_Invalidated }
            guard $0.invalidateHandler == nil else { return paramErr }
            $0.invalidateHandler = handler
            return noErr
        }
    }

    /// Marks the buffer invalid; the handler to call (outside the lock) the first time.
    func markInvalidated() -> ((CMSampleBuffer) -> Void)? {
        withState {
            guard !$0.invalidated else { return nil }
            $0.invalidated = true
            let handler = $0.invalidateHandler
            $0.invalidateHandler = nil
            return handler
        }
    }
}
