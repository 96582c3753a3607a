import Foundation
import Synchronization

/// A pool of same-sized pixel buffers that recycles each buffer once nobody else holds it.
///
/// The pool keeps a reference to every buffer it made; a buffer is free again when that
/// reference is the only one left, so recycling needs no callback and no allocation.
/// A pool with a maximum buffer count refuses to grow past it, which is how a consumer
/// that holds on to buffers ends up with `OutOfBuffers` drops, as on iOS.
public final class CVPixelBufferPool: @unchecked Sendable {
    package let format: PixelFormat
    package let width: Int
    package let height: Int
    package let minimumBufferCount: Int
    package let maximumBufferCount: Int
    private let buffers: Mutex<[CVBuffer]>
    private let attachments: [String: any Sendable]
    /// `kCVPixelBufferPoolMaximumBufferAgeKey` in nanoseconds (nil: buffers never age out,
    /// as for the library's own pools), and when each buffer was last handed out.
    package let maximumBufferAge: UInt64?
    private let handedOut = Mutex<[ObjectIdentifier: UInt64]>([:])

    package init(
        format: PixelFormat, width: Int, height: Int, minimumBufferCount: Int = 0,
        maximumBufferCount: Int = .max, attachments: [String: any Sendable] = [:], maximumBufferAge: UInt64? = nil
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.minimumBufferCount = minimumBufferCount
        self.maximumBufferCount = max(maximumBufferCount, minimumBufferCount, 1)
        self.attachments = attachments
        self.maximumBufferAge = maximumBufferAge
        var made: [CVBuffer] = []
        made.reserveCapacity(min(self.maximumBufferCount, 64))
        for _ in 0..<minimumBufferCount {
            made.append(CVPixelBufferPool.makeBuffer(format, width, height, attachments))
        }
        self.buffers = Mutex(made)
    }

    private static func makeBuffer(_ format: PixelFormat, _ width: Int, _ height: Int, _ attachments: [String: any Sendable]) -> CVBuffer {
        let buffer = CVBuffer(format: format, width: width, height: height)
        if !attachments.isEmpty { buffer.attachmentStore.withLock { $0 = attachments } }
        return buffer
    }

    /// A free buffer, or a new one while under the maximum; `nil` when every buffer is held.
    package func dequeue(limit: Int = .max) -> CVBuffer? {
        guard maximumBufferAge != nil else { return take(limit: limit) }
        freeAgedBuffers()
        let buffer = take(limit: limit)
        if let buffer { handedOut.withLock { $0[ObjectIdentifier(buffer)] = CVPixelBufferPool.now() } }
        return buffer
    }

    /// Frees the free buffers (beyond the minimum count) last handed out longer ago than
    /// `maximumBufferAge`. Ageing is checked when the pool is used (dequeue, flush), not on
    /// a timer.
    private func freeAgedBuffers() {
        guard let age = maximumBufferAge else { return }
        let now = CVPixelBufferPool.now()
        let times = handedOut.withLock { $0 }
        var dropped: [ObjectIdentifier] = []
        buffers.withLock { all in
            var index = all.count - 1
            while index >= 0 && all.count > minimumBufferCount {
                let id = ObjectIdentifier(all[index])
                if isKnownUniquelyReferenced(&all[index]), now &- (times[id] ?? now) > age {
                    all.remove(at: index)
                    dropped.append(id)
                }
                index -= 1
            }
        }
        if !dropped.isEmpty { handedOut.withLock { for id in dropped { $0[id] = nil } } }
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    private static func now() -> UInt64 {
        CMClockConvertHostTimeToSystemUnits(CMClockGetTime(CMClockGetHostTimeClock()))
    }

    private func take(limit: Int) -> CVBuffer? {
        buffers.withLock { all -> CVBuffer? in
            for index in all.indices where isKnownUniquelyReferenced(&all[index]) {
                return all[index]
            }
            guard all.count < min(maximumBufferCount, limit) else { return nil }
            let fresh = CVPixelBufferPool.makeBuffer(format, width, height, attachments)
            all.append(fresh)
            return fresh
        }
    }

    /// How many buffers the pool owns (free or held).
    package var bufferCount: Int { buffers.withLock { $0.count } }

    /// Lets go of the buffers someone else still holds: they are freed when their holders
    /// let go, and the pool may make new ones in their place. A pool reused by a new stream
    /// starts this way, with its whole budget, as a new pool would.
    package func forgetHeldBuffers() {
        buffers.withLock { all in
            var index = all.count - 1
            while index >= 0 {
                if !isKnownUniquelyReferenced(&all[index]) { all.remove(at: index) }
                index -= 1
            }
        }
    }

    /// Frees buffers nobody holds: beyond the minimum only, or all of them.
    package func flush(keepingMinimum: Bool = true) {
        freeAgedBuffers()
        let keep = keepingMinimum ? minimumBufferCount : 0
        buffers.withLock { all in
            var index = all.count - 1
            while index >= 0 && all.count > keep {
                if isKnownUniquelyReferenced(&all[index]) { all.remove(at: index) }
                index -= 1
            }
        }
    }
}

/// Creates a pool. `pixelBufferAttributes` must name the width, height and pixel format.
@discardableResult
@_disfavoredOverload
public func CVPixelBufferPoolCreate(
    _ allocator: AnyObject?, _ poolAttributes: [String: Any]?, _ pixelBufferAttributes: [String: Any]?,
    _ poolOut: UnsafeMutablePointer<CVPixelBufferPool?>
) -> CVReturn {
    guard let attributes = pixelBufferAttributes,
        let width = integer(attributes[kCVPixelBufferWidthKey]),
        let height = integer(attributes[kCVPixelBufferHeightKey]),
        let rawFormat = integer(attributes[kCVPixelBufferPixelFormatTypeKey])
    else { return kCVReturnInvalidArgument }
    guard width > 0, height > 0 else { return kCVReturnInvalidSize }
    guard let format = PixelFormat(rawValue: OSType(truncatingIfNeeded: rawFormat)) else { return kCVReturnInvalidPixelFormat }
    let minimum = integer(poolAttributes?[kCVPixelBufferPoolMinimumBufferCountKey]) ?? 0
    let maximum = integer(poolAttributes?[kCVPixelBufferPoolMaximumBufferCountKey]) ?? .max
    // Apple's default age is one second; 0 turns ageing off.
    let ageSeconds = seconds(poolAttributes?[kCVPixelBufferPoolMaximumBufferAgeKey]) ?? 1
    poolOut.pointee = CVPixelBufferPool(
        format: format, width: width, height: height, minimumBufferCount: max(0, minimum), maximumBufferCount: maximum,
        maximumBufferAge: ageSeconds > 0 ? UInt64(ageSeconds * 1e9) : nil)
    return kCVReturnSuccess
}

/// Takes a free buffer from the pool, or makes one.
@discardableResult
public func CVPixelBufferPoolCreatePixelBuffer(
    _ allocator: AnyObject?, _ pixelBufferPool: CVPixelBufferPool, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard let buffer = pixelBufferPool.dequeue() else { return kCVReturnWouldExceedAllocationThreshold }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// Frees the pool's buffers nobody holds: all of them, or with `.excessBuffers` only those
/// beyond the pool's minimum buffer count.
public func CVPixelBufferPoolFlush(_ pool: CVPixelBufferPool, _ options: CVPixelBufferPoolFlushFlags) {
    pool.flush(keepingMinimum: options.contains(.excessBuffers))
}

/// Reads an integer from an attribute value given as any integer type, NSNumber or Double.
package func integer(_ value: Any?) -> Int? {
    switch value {
    case let v as Int: v
    case let v as UInt32: Int(v)
    case let v as Int32: Int(v)
    case let v as UInt: Int(exactly: v)
    case let v as Int64: Int(exactly: v)
    case let v as UInt64: Int(exactly: v)
    case let v as NSNumber: v.intValue
    case let v as Double where v.rounded() == v: Int(v)
    default: nil
    }
}

/// Reads a number of seconds given as NSNumber or any Swift number.
private func seconds(_ value: Any?) -> Double? {
    switch value {
    case let v as Double: v
    case let v as NSNumber: v.doubleValue
    default: integer(value).map(Double.init)
    }
}
