import Foundation
import MediaIO

/// Linear PCM sample buffers into a `MovieWriter`'s audio track: shared by `AVAssetWriter` and
/// the movie output.
extension MovieWriter {
    /// Appends a buffer of linear PCM (16- or 32-bit integers or 32-bit floats, interleaved or
    /// not) at its presentation time; throws as `appendAudio(_:frames:layout:presentationTime:)`.
    func appendAudio(_ sample: CMSampleBuffer) throws(MovieWriterError) {
        try withLinearPCM(sample) { (raw, frames, layout, time) throws(MovieWriterError) in
            try appendAudio(raw, frames: frames, layout: layout, presentationTime: time)
        }
    }
}

/// Hands a linear PCM sample buffer's bytes, frame count, layout and presentation time to
/// `append` (the movie writer's and the stream writer's audio paths share it); throws for
/// other audio, and what `append` throws.
func withLinearPCM(
    _ sample: CMSampleBuffer, _ append: (UnsafeRawBufferPointer, Int, PCMLayout, CMTime) throws(MovieWriterError) -> Void
) throws(MovieWriterError) {
    guard let asbd = sample.formatDescription?.audioStreamBasicDescription, asbd.mFormatID == kAudioFormatLinearPCM,
        let data = CMSampleBufferGetDataBuffer(sample)
    else { throw .invalidSettings("only linear PCM audio can be appended") }
    let isFloat = asbd.mFormatFlags & kAudioFormatFlagIsFloat != 0
    let sampleType: PCMLayout.Sample
    switch (isFloat, asbd.mBitsPerChannel) {
    case (true, 32): sampleType = .float32
    case (false, 16): sampleType = .int16
    case (false, 32): sampleType = .int32
    default: throw .invalidSettings("linear PCM of \(asbd.mBitsPerChannel) bits")
    }
    let layout = PCMLayout(
        sample: sampleType, channels: Int(asbd.mChannelsPerFrame), sampleRate: asbd.mSampleRate,
        nonInterleaved: asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0)
    let length = CMBlockBufferGetDataLength(data)
    var bytes = [UInt8](repeating: 0, count: length)
    let copied = bytes.withUnsafeMutableBytes {
        CMBlockBufferCopyDataBytes(data, atOffset: 0, dataLength: length, destination: $0.baseAddress!)
    }
    guard copied == noErr else { throw .invalidSettings("unreadable audio data") }
    // withUnsafeBytes rethrows untyped errors: carry the typed one out.
    let failure = bytes.withUnsafeBytes { raw -> MovieWriterError? in
        do throws(MovieWriterError) {
            try append(raw, sample.numSamples, layout, sample.presentationTimeStamp)
            return nil
        } catch {
            return error
        }
    }
    if let failure { throw failure }
}
