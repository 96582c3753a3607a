// AVCaptureVideoDataOutput.h (iOS 18 SDK), spelled as iOS code spells it. The
// AVAssetWriter helpers (recommendedVideoSettingsForAssetWriter(writingTo:) and friends)
// belong to the asset-writer work; the deprecated iOS 4 minFrameDuration is at the end.
import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

/// A delegate as an app writes it: both methods optional.
final class SpellingVideoDelegate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate {
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
}

/// Touches every other declaration of AVCaptureVideoDataOutput.h; compiled, never called.
func spellAVCaptureVideoDataOutput() {
    let output: AVCaptureVideoDataOutput = AVCaptureVideoDataOutput()
    let delegate = SpellingVideoDelegate()
    output.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "frames"))
    output.setSampleBufferDelegate(nil, queue: nil)
    let current: (any AVCaptureVideoDataOutputSampleBufferDelegate)? = output.sampleBufferDelegate
    let queue: DispatchQueue? = output.sampleBufferCallbackQueue
    output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
    output.videoSettings = nil
    let settings: [String: Any] = output.videoSettings
    let pixelFormats: [OSType] = output.availableVideoPixelFormatTypes
    let codecs: [AVVideoCodecType] = output.availableVideoCodecTypes
    output.alwaysDiscardsLateVideoFrames = false
    let discards: Bool = output.alwaysDiscardsLateVideoFrames
    output.automaticallyConfiguresOutputBufferDimensions = false
    let automatic: Bool = output.automaticallyConfiguresOutputBufferDimensions
    output.deliversPreviewSizedOutputBuffers = true
    let previewSized: Bool = output.deliversPreviewSizedOutputBuffers
    let writerCodecs: [AVVideoCodecType] = output.availableVideoCodecTypesForAssetWriter(writingTo: .mov)
    let recommended: [String: Any]? = output.recommendedVideoSettingsForAssetWriter(writingTo: .mp4)
    let forCodec: [String: Any]? = output.recommendedVideoSettings(forVideoCodecType: .hevc, assetWriterOutputFileType: .mov)
    let forURL: [String: Any]? = output.recommendedVideoSettings(
        forVideoCodecType: .h264, assetWriterOutputFileType: .mp4, outputFileURL: URL(fileURLWithPath: "/tmp/a.mp4"))
    _ = (current, queue, settings, pixelFormats, codecs, discards, automatic, previewSized, writerCodecs, recommended, forCodec, forURL)
}

@Suite("AVCaptureVideoDataOutput spelling")
struct AVCaptureVideoDataOutputSpellingTests {
    @Test("defaults as Apple documents them; nil videoSettings reads back as the default format")
    func defaults() throws {
        let output = AVCaptureVideoDataOutput()
        #expect(output.alwaysDiscardsLateVideoFrames)
        #expect(output.automaticallyConfiguresOutputBufferDimensions)
        #expect(output.availableVideoCodecTypes.isEmpty)
        #expect(output.availableVideoPixelFormatTypes.contains(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        #expect(output.sampleBufferDelegate == nil && output.sampleBufferCallbackQueue == nil)
        output.videoSettings = nil
        let format = try #require(output.videoSettings[kCVPixelBufferPixelFormatTypeKey as String] as? OSType)
        #expect(format == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        let delegate = SpellingVideoDelegate()
        let queue = DispatchQueue(label: "spelling")
        output.setSampleBufferDelegate(delegate, queue: queue)
        #expect(output.sampleBufferDelegate === delegate && output.sampleBufferCallbackQueue === queue)
    }
}

/// The iOS 4 frame-rate limit (deprecated in iOS 5); compiled, never called.
@available(*, deprecated)
func spellAVCaptureVideoDataOutputDeprecated(_ output: AVCaptureVideoDataOutput) {
    output.minFrameDuration = CMTime(value: 1, timescale: 15)
    let limit: CMTime = output.minFrameDuration
    _ = limit
}
