import Foundation

/// Called to make a sample buffer's data ready, as `CMSampleBufferMakeDataReadyCallback`.
/// Image-buffer sample buffers made here are always ready, so it is never called.
public typealias CMSampleBufferMakeDataReadyCallback = (CMSampleBuffer, UnsafeMutableRawPointer?) -> OSStatus

/// Copies the sample buffer's timing into `arrayToFill` (one entry: a video sample buffer
/// holds one frame). With `arrayToFill` nil, only `entriesNeededOut` is set; an
/// `entryCount` below 1 gives `kCMSampleBufferError_ArrayTooSmall`.
@discardableResult
public func CMSampleBufferGetSampleTimingInfoArray(
    _ sbuf: CMSampleBuffer, entryCount: CMItemCount, arrayToFill: UnsafeMutablePointer<CMSampleTimingInfo>?,
    entriesNeededOut: UnsafeMutablePointer<CMItemCount>?
) -> OSStatus {
    guard sbuf.isValid else { return kCMSampleBufferError_Invalidated }
    entriesNeededOut?.pointee = 1
    guard let arrayToFill else { return 0 }
    guard entryCount >= 1 else { return kCMSampleBufferError_ArrayTooSmall }
    arrayToFill.pointee = sbuf.timingInfo
    return 0
}

/// The timing of sample `sampleIndex` (only 0 exists).
@discardableResult
public func CMSampleBufferGetSampleTimingInfo(
    _ sbuf: CMSampleBuffer, at sampleIndex: CMItemIndex, timingInfoOut: UnsafeMutablePointer<CMSampleTimingInfo>
) -> OSStatus {
    let count = sbuf.audioData != nil ? sbuf.numSamples : 1
    guard sampleIndex >= 0, sampleIndex < count else { return kCMSampleBufferError_SampleIndexOutOfRange }
    // One timing entry covers all of an audio buffer's samples: sample i starts i durations later.
    var timing = sbuf.timingInfo
    if sampleIndex > 0 { timing.presentationTimeStamp = timing.presentationTimeStamp + CMTimeMultiply(timing.duration, multiplier: Int32(sampleIndex)) }
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

/// A new sample buffer with the same image, format and attachments and new timing
/// (`sampleTimingEntryCount` 1; 0 keeps none: times invalid).
@discardableResult
public func CMSampleBufferCreateCopyWithNewTiming(
    allocator: AnyObject?, sampleBuffer originalSBuf: CMSampleBuffer, sampleTimingEntryCount numSampleTimingEntries: CMItemCount,
    sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    guard numSampleTimingEntries <= 1 else { return kCMSampleBufferError_InvalidEntryCount }
    let timing = numSampleTimingEntries == 1 ? sampleTimingArray?.pointee : nil
    if numSampleTimingEntries == 1 && timing == nil { return kCMSampleBufferError_RequiredParameterMissing }
    let copy = CMSampleBuffer(
        imageBuffer: originalSBuf.imageBuffer, formatDescription: originalSBuf.formatDescription,
        presentationTimeStamp: timing?.presentationTimeStamp ?? .invalid, duration: timing?.duration ?? .invalid,
        metadata: originalSBuf.metadata)
    copy.attachments = originalSBuf.attachments
    sampleBufferOut.pointee = copy
    return 0
}

extension CMSampleBuffer {
    /// The sample's timing: its duration and presentation time, no decode time. Audio has
    /// one entry for all its samples: the first one's time, and one sample's duration.
    package var timingInfo: CMSampleTimingInfo {
        if let rate = formatDescription?.audio?.asbd.pointee, rate.mSampleRate > 0 {
            let one = CMTime(value: Int64(max(1, rate.mFramesPerPacket)), timescale: CMTimeScale(rate.mSampleRate.rounded()))
            return CMSampleTimingInfo(duration: one, presentationTimeStamp: presentationTimeStamp, decodeTimeStamp: .invalid)
        }
        return CMSampleTimingInfo(duration: duration, presentationTimeStamp: presentationTimeStamp, decodeTimeStamp: .invalid)
    }

    /// The timing of each sample, as the Swift overlay's `sampleTimingInfos()`.
    public func sampleTimingInfos() throws -> [CMSampleTimingInfo] { [timingInfo] }

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
