import Foundation

// CMSampleBuffer.h's data readiness, invalidation and output timing, with the Swift
// overlay's spelling. Capture delivers ready, valid buffers; these matter for buffers an
// app makes itself (CMSampleBufferCreateForImageBuffer with dataReady false, ...).

/// A generic parameter error, as MacTypes.h's `paramErr`.
public let paramErr: OSStatus = -50

extension CMSampleBuffer {
    /// Whether a sample buffer's data is ready, not yet, or failed to load.
    public enum DataReadiness: Equatable, Hashable, Sendable {
        /// The data is not ready yet (`CMSampleBufferMakeDataReady` may make it so).
        case notReady
        /// The data is ready.
        case ready
        /// Loading the data failed with this status.
        case failed(OSStatus)
    }

    /// Makes a not-ready buffer whose `makeDataReady` calls `callback`.
    func startNotReady(_ callback: CMSampleBufferMakeDataReadyCallback?, refcon: UnsafeMutableRawPointer?) {
        withState {
            $0.readiness = .notReady
            $0.makeDataReady = callback.map { ($0, refcon) }
        }
    }

    /// Sets the readiness (the Swift overlay's method): `.ready` as
    /// `CMSampleBufferSetDataReady`, `.failed` as `CMSampleBufferSetDataFailed`. Readiness
    /// only moves forward, so `.notReady` throws `paramErr` once the data is ready or failed.
    public func setDataReadiness(_ newValue: DataReadiness) throws {
        let status: OSStatus
        switch newValue {
        case .ready: status = CMSampleBufferSetDataReady(self)
        case .failed(let failure): status = CMSampleBufferSetDataFailed(self, status: failure)
        case .notReady: status = dataReadiness == .notReady ? noErr : paramErr
        }
        try CMSampleBuffer.check(status)
    }

    /// Makes the data ready by calling the buffer's make-data-ready callback
    /// (`CMSampleBufferMakeDataReady`); throws its status.
    public func makeDataReady() throws { try CMSampleBuffer.check(CMSampleBufferMakeDataReady(self)) }

    /// Invalidates the buffer (`CMSampleBufferInvalidate`): `isValid` becomes false.
    public func invalidate() throws { try CMSampleBuffer.check(CMSampleBufferInvalidate(self)) }

    /// Sets the output presentation time; `.invalid` goes back to the presentation time
    /// (`CMSampleBufferSetOutputPresentationTimeStamp`).
    public func setOutputPresentationTimeStamp(_ pts: CMTime) throws {
        try CMSampleBuffer.check(CMSampleBufferSetOutputPresentationTimeStamp(self, newValue: pts))
    }

    /// The output decode time: `outputPresentationTimeStamp + (decodeTimeStamp − presentationTimeStamp)`;
    /// invalid for capture, whose buffers have no decode time.
    public var outputDecodeTimeStamp: CMTime { CMSampleBufferGetOutputDecodeTimeStamp(self) }

    /// The output timing of each sample (one entry), as the Swift overlay's method.
    public func outputSampleTimingInfos() throws -> [CMSampleTimingInfo] {
        try CMSampleBuffer.check(isValid ? noErr : kCMSampleBufferError_Invalidated)
        return [outputTimingInfo]
    }

    /// The size of sample `index` in bytes; 0 for image buffers, which have no sizes.
    public func sampleSize(at index: CMItemIndex) -> Int { CMSampleBufferGetSampleSize(self, at: index) }

    /// The size of every sample; throws `kCMSampleBufferError_BufferHasNoSampleSizes` for
    /// image buffers and buffers made without sizes.
    public func sampleSizes() throws -> [Int] {
        let stored = withState { $0.sampleSizes }
        guard stored.map({ !$0.isEmpty }) ?? (formatDescription?.audioStreamBasicDescription != nil) else {
            throw NSError(domain: "NSOSStatusErrorDomain", code: Int(kCMSampleBufferError_BufferHasNoSampleSizes))
        }
        return (0..<numSamples).map { sampleSize(at: $0) }
    }

    /// Makes a ready sample buffer holding `imageBuffer` (the Swift overlay's initializer of
    /// `CMSampleBufferCreateReadyWithImageBuffer`); throws its status.
    public convenience init(imageBuffer: CVImageBuffer, formatDescription: CMVideoFormatDescription, sampleTiming: CMSampleTimingInfo) throws {
        guard CMVideoFormatDescriptionMatchesImageBuffer(formatDescription, imageBuffer: imageBuffer) else {
            throw NSError(domain: "NSOSStatusErrorDomain", code: Int(kCMSampleBufferError_InvalidMediaFormat))
        }
        self.init(
            imageBuffer: imageBuffer, formatDescription: formatDescription, presentationTimeStamp: sampleTiming.presentationTimeStamp,
            duration: sampleTiming.duration)
    }

    /// The output timing: output duration, output presentation and decode times.
    var outputTimingInfo: CMSampleTimingInfo {
        var timing = timingInfo
        timing.presentationTimeStamp = outputPresentationTimeStamp
        timing.decodeTimeStamp = outputDecodeTimeStamp
        return timing
    }

    static func check(_ status: OSStatus) throws {
        guard status == noErr else { throw NSError(domain: "NSOSStatusErrorDomain", code: Int(status)) }
    }
}

/// Marks the data ready; there is no way back to not ready.
@discardableResult
public func CMSampleBufferSetDataReady(_ sbuf: CMSampleBuffer) -> OSStatus {
    sbuf.withState {
        guard !$0.invalidated else { return kCMSampleBufferError_Invalidated }
        $0.readiness = .ready
        return noErr
    }
}

/// Marks the data as failed to load, with `status`.
@discardableResult
public func CMSampleBufferSetDataFailed(_ sbuf: CMSampleBuffer, status: OSStatus) -> OSStatus {
    sbuf.withState {
        guard !$0.invalidated else { return kCMSampleBufferError_Invalidated }
        $0.readiness = .failed(status)
        return noErr
    }
}

/// Whether loading the data failed; the failure's status goes to `statusOut`.
public func CMSampleBufferHasDataFailed(_ sbuf: CMSampleBuffer, statusOut: UnsafeMutablePointer<OSStatus>?) -> Bool {
    guard case .failed(let status) = sbuf.dataReadiness else { return false }
    statusOut?.pointee = status
    return true
}

/// Makes the data ready: nothing to do when it is; otherwise calls the make-data-ready
/// callback given at creation (on this thread, with no lock held) and marks the buffer ready
/// when it returns 0. `kCMSampleBufferError_BufferNotReady` when there is no callback or it
/// fails; `kCMSampleBufferError_Invalidated` for an invalidated buffer.
@discardableResult
public func CMSampleBufferMakeDataReady(_ sbuf: CMSampleBuffer) -> OSStatus {
    guard sbuf.isValid else { return kCMSampleBufferError_Invalidated }
    if sbuf.dataReadiness == .ready { return noErr }
    guard let pending = sbuf.withState({ $0.makeDataReady }), pending.callback(sbuf, pending.refcon) == noErr else {
        return kCMSampleBufferError_BufferNotReady
    }
    return CMSampleBufferSetDataReady(sbuf)
}

/// Invalidates the buffer: `CMSampleBufferIsValid` is false from now on, and making its
/// data ready or reading its timing reports `kCMSampleBufferError_Invalidated`. The first
/// time, calls the invalidation callback or handler (on this thread, with no lock held).
/// Invalidating twice is harmless.
@discardableResult
public func CMSampleBufferInvalidate(_ sbuf: CMSampleBuffer) -> OSStatus {
    sbuf.markInvalidated()?(sbuf)
    return noErr
}

/// Sets the output presentation time (`.invalid` restores the default: the presentation time).
@discardableResult
public func CMSampleBufferSetOutputPresentationTimeStamp(_ sbuf: CMSampleBuffer, newValue outputPresentationTimeStamp: CMTime) -> OSStatus {
    sbuf.withState {
        guard !$0.invalidated else { return kCMSampleBufferError_Invalidated }
        $0.outputPresentationTimeStamp = outputPresentationTimeStamp.isValid ? outputPresentationTimeStamp : nil
        return noErr
    }
}

/// The output decode time: `output PTS + (DTS − PTS)`; invalid when the buffer has no decode time.
public func CMSampleBufferGetOutputDecodeTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime {
    let decode = sbuf.decodeTimeStamp
    guard decode.isValid else { return .invalid }
    return CMTimeAdd(sbuf.outputPresentationTimeStamp, CMTimeSubtract(decode, sbuf.presentationTimeStamp))
}

/// Copies the output timing (one entry); see `CMSampleBufferGetSampleTimingInfoArray`.
@discardableResult
public func CMSampleBufferGetOutputSampleTimingInfoArray(
    _ sbuf: CMSampleBuffer, entryCount timingArrayEntries: CMItemCount, arrayToFill timingArrayOut: UnsafeMutablePointer<CMSampleTimingInfo>?,
    entriesNeededOut timingArrayEntriesNeededOut: UnsafeMutablePointer<CMItemCount>?
) -> OSStatus {
    guard sbuf.isValid else { return kCMSampleBufferError_Invalidated }
    timingArrayEntriesNeededOut?.pointee = 1
    guard let timingArrayOut else { return noErr }
    guard timingArrayEntries >= 1 else { return kCMSampleBufferError_ArrayTooSmall }
    timingArrayOut.pointee = sbuf.outputTimingInfo
    return noErr
}

/// Copies the size of each sample; image buffers have none
/// (`kCMSampleBufferError_BufferHasNoSampleSizes`).
@discardableResult
public func CMSampleBufferGetSampleSizeArray(
    _ sbuf: CMSampleBuffer, entryCount sizeArrayEntries: CMItemCount, arrayToFill sizeArrayOut: UnsafeMutablePointer<Int>?,
    entriesNeededOut sizeArrayEntriesNeededOut: UnsafeMutablePointer<CMItemCount>?
) -> OSStatus {
    guard let sizes = try? sbuf.sampleSizes() else { return kCMSampleBufferError_BufferHasNoSampleSizes }
    // Constant-size samples are one entry, as Core Media reports them.
    let entries = Set(sizes).count == 1 ? [sizes[0]] : sizes
    sizeArrayEntriesNeededOut?.pointee = entries.count
    guard let sizeArrayOut else { return noErr }
    guard sizeArrayEntries >= entries.count else { return kCMSampleBufferError_ArrayTooSmall }
    for (index, size) in entries.enumerated() { sizeArrayOut[index] = size }
    return noErr
}

/// A new sample buffer with the same image or data, sample count, sizes, format, timing
/// (output presentation time too), readiness, per-sample attachments and propagating attachments.
@discardableResult
public func CMSampleBufferCreateCopy(
    allocator: AnyObject?, sampleBuffer sbuf: CMSampleBuffer, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    guard sbuf.isValid else { return kCMSampleBufferError_Invalidated }
    sampleBufferOut.pointee = CMSampleBuffer(state: sbuf.copiedState(keepingOutputTime: true))
    return noErr
}
