import Foundation

/// Called to make a sample buffer's data ready, as `CMSampleBufferMakeDataReadyCallback`.
/// Image-buffer sample buffers made here are always ready, so it is never called.
public typealias CMSampleBufferMakeDataReadyCallback = (CMSampleBuffer, UnsafeMutableRawPointer?) -> OSStatus

/// Copies the sample buffer's timing entries into `arrayToFill`: one for a frame or for
/// audio (it applies to every sample), or those the buffer was made with (0, 1 or one per
/// sample). With `arrayToFill` nil, only `entriesNeededOut` is set; an `entryCount` below
/// the entries needed gives `kCMSampleBufferError_ArrayTooSmall`, a buffer made without
/// timing `kCMSampleBufferError_BufferHasNoSampleTimingInfo`.
@discardableResult
public func CMSampleBufferGetSampleTimingInfoArray(
    _ sbuf: CMSampleBuffer, entryCount: CMItemCount, arrayToFill: UnsafeMutablePointer<CMSampleTimingInfo>?,
    entriesNeededOut: UnsafeMutablePointer<CMItemCount>?
) -> OSStatus {
    guard sbuf.isValid else { return kCMSampleBufferError_Invalidated }
    let entries = sbuf.timingEntries
    entriesNeededOut?.pointee = entries.count
    guard !entries.isEmpty else { return kCMSampleBufferError_BufferHasNoSampleTimingInfo }
    guard let arrayToFill else { return 0 }
    guard entryCount >= entries.count else { return kCMSampleBufferError_ArrayTooSmall }
    for (index, entry) in entries.enumerated() { arrayToFill[index] = entry }
    return 0
}

/// The timing of sample `sampleIndex`: its own entry, or, from a single entry, the first
/// sample's times moved on by `sampleIndex` durations.
@discardableResult
public func CMSampleBufferGetSampleTimingInfo(
    _ sbuf: CMSampleBuffer, at sampleIndex: CMItemIndex, timingInfoOut: UnsafeMutablePointer<CMSampleTimingInfo>
) -> OSStatus {
    let count = sbuf.withState { $0.timings == nil && $0.dataBuffer == nil ? max($0.numSamples, 1) : $0.numSamples }
    guard sampleIndex >= 0, sampleIndex < count else { return kCMSampleBufferError_SampleIndexOutOfRange }
    let entries = sbuf.timingEntries
    guard var timing = entries.first else { return kCMSampleBufferError_BufferHasNoSampleTimingInfo }
    if entries.count > 1 {
        timing = entries[sampleIndex]
    } else if sampleIndex > 0 {
        let shift = CMTimeMultiply(timing.duration, multiplier: Int32(clamping: sampleIndex))
        timing.presentationTimeStamp = timing.presentationTimeStamp + shift
        if timing.decodeTimeStamp.isNumeric { timing.decodeTimeStamp = timing.decodeTimeStamp + shift }
    }
    timingInfoOut.pointee = timing
    return 0
}

/// Makes a sample buffer holding `imageBuffer`. `formatDescription` must match the image
/// buffer (`kCMSampleBufferError_InvalidMediaFormat` otherwise). With `dataReady` false the
/// buffer starts not ready, and `CMSampleBufferMakeDataReady` calls `makeDataReadyCallback`
/// (with `refcon`) on the caller's thread to make it ready.
@discardableResult
public func CMSampleBufferCreateForImageBuffer(
    allocator: AnyObject?, imageBuffer: CVImageBuffer, dataReady: Bool,
    makeDataReadyCallback: CMSampleBufferMakeDataReadyCallback?, refcon: UnsafeMutableRawPointer?,
    formatDescription: CMVideoFormatDescription, sampleTiming: UnsafePointer<CMSampleTimingInfo>,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    let status = CMSampleBufferCreateReadyWithImageBuffer(
        allocator: allocator, imageBuffer: imageBuffer, formatDescription: formatDescription, sampleTiming: sampleTiming,
        sampleBufferOut: sampleBufferOut)
    if status == noErr, !dataReady, let made = sampleBufferOut.pointee {
        made.startNotReady(makeDataReadyCallback, refcon: refcon)
    }
    return status
}

/// Makes a ready sample buffer holding `imageBuffer` with the given timing.
@discardableResult
public func CMSampleBufferCreateReadyWithImageBuffer(
    allocator: AnyObject?, imageBuffer: CVImageBuffer, formatDescription: CMVideoFormatDescription,
    sampleTiming: UnsafePointer<CMSampleTimingInfo>, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    guard CMVideoFormatDescriptionMatchesImageBuffer(formatDescription, imageBuffer: imageBuffer) else {
        return kCMSampleBufferError_InvalidMediaFormat
    }
    let timing = sampleTiming.pointee
    sampleBufferOut.pointee = CMSampleBuffer(
        imageBuffer: imageBuffer, formatDescription: formatDescription,
        presentationTimeStamp: timing.presentationTimeStamp, duration: timing.duration)
    return 0
}

extension CMSampleBuffer {
    /// The first timing entry: the one the buffer was made with, or its duration and
    /// presentation time (no decode time). Audio has one entry for all its samples: the
    /// first one's time, and one sample's duration.
    package var timingInfo: CMSampleTimingInfo {
        if let first = withState({ $0.timings?.first }) { return first }
        if let rate = formatDescription?.audio?.asbd.pointee, rate.mSampleRate > 0 {
            let one = CMTime(value: Int64(max(1, rate.mFramesPerPacket)), timescale: CMTimeScale(rate.mSampleRate.rounded()))
            return CMSampleTimingInfo(duration: one, presentationTimeStamp: presentationTimeStamp, decodeTimeStamp: .invalid)
        }
        return CMSampleTimingInfo(duration: duration, presentationTimeStamp: presentationTimeStamp, decodeTimeStamp: .invalid)
    }

    /// The timing entries: those the buffer was made with, else the one derived from its
    /// presentation time and duration (or, for audio, one sample's duration).
    var timingEntries: [CMSampleTimingInfo] { withState { $0.timings } ?? [timingInfo] }

    /// The timing entries, as the Swift overlay's `sampleTimingInfos()`; throws
    /// `kCMSampleBufferError_BufferHasNoSampleTimingInfo` for a buffer made without timing.
    public func sampleTimingInfos() throws -> [CMSampleTimingInfo] {
        try CMSampleBuffer.check(isValid ? noErr : kCMSampleBufferError_Invalidated)
        let entries = timingEntries
        try CMSampleBuffer.check(entries.isEmpty ? kCMSampleBufferError_BufferHasNoSampleTimingInfo : noErr)
        return entries
    }

    /// The timing of sample `index`, as the Swift overlay's `sampleTimingInfo(at:)`.
    public func sampleTimingInfo(at index: Int) throws -> CMSampleTimingInfo {
        var timing = CMSampleTimingInfo()
        let status = CMSampleBufferGetSampleTimingInfo(self, at: index, timingInfoOut: &timing)
        guard status == noErr else { throw NSError(domain: "NSOSStatusErrorDomain", code: Int(status)) }
        return timing
    }

    /// The output duration; the duration for capture (no speed changes).
    public var outputDuration: CMTime { duration }
    /// The output presentation time: the one set with `setOutputPresentationTimeStamp(_:)`,
    /// else the presentation time.
    public var outputPresentationTimeStamp: CMTime {
        withState { $0.outputPresentationTimeStamp } ?? presentationTimeStamp
    }
}

/// The output duration of a sample buffer.
public func CMSampleBufferGetOutputDuration(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.outputDuration }
/// Whether a sample buffer's data is ready (always, for image buffers).
public func CMSampleBufferDataIsReady(_ sbuf: CMSampleBuffer) -> Bool { sbuf.dataReadiness == .ready }
