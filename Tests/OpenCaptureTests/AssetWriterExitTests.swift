import Foundation
import Testing

@testable import OpenCapture

/// Asset-writer misuse ends the process with Apple's exception.
@Suite("Asset writer exceptions end the process")
struct AssetWriterExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    static var video: [String: Any] { [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 64] }

    static func url() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent("oc-exit-\(UUID().uuidString).mp4") }

    @Test func addInputAfterStartWriting() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let writer = try! AVAssetWriter(outputURL: AssetWriterExitTests.url(), fileType: .mp4)
            writer.add(AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterExitTests.video))
            writer.startWriting()
            writer.add(AVAssetWriterInput(mediaType: .audio, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1]))
        }
        #expect(Self.message(result).contains("'NSInternalInconsistencyException', reason: '*** -[AVAssetWriter addInput:] Cannot call method when status is 1'"))
    }

    @Test func appendBeforeStartSession() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let writer = try! AVAssetWriter(outputURL: AssetWriterExitTests.url(), fileType: .mp4)
            let input = AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterExitTests.video)
            let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
            writer.add(input)
            writer.startWriting()
            var buffer: CVPixelBuffer?
            CVPixelBufferCreate(nil, 64, 64, kCVPixelFormatType_32BGRA, nil, &buffer)
            adaptor.append(buffer!, withPresentationTime: .zero)
        }
        #expect(Self.message(result).contains("reason: '*** -[AVAssetWriterInputPixelBufferAdaptor appendPixelBuffer:withPresentationTime:] Cannot append pixel buffer: Must start a session (using -[AVAssetWriter startSessionAtSourceTime:) first'"))
    }

    @Test func startSessionBeforeStartWriting() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            try! AVAssetWriter(outputURL: AssetWriterExitTests.url(), fileType: .mov).startSession(atSourceTime: .zero)
        }
        #expect(Self.message(result).contains("*** -[AVAssetWriter startSessionAtSourceTime:] Cannot call method when status is 0"))
    }

    @Test func finishWritingBeforeStartWriting() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            try! AVAssetWriter(outputURL: AssetWriterExitTests.url(), fileType: .mov).finishWriting {}
        }
        #expect(Self.message(result).contains("*** -[AVAssetWriter finishWritingWithCompletionHandler:] Cannot call method when status is 0"))
    }

    @Test func videoSettingsWithoutHeight() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64])
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVAssetWriterInput initWithMediaType:outputSettings:sourceFormatHint:] Output settings dictionary must contain AVVideoHeightKey'"))
    }

    @Test func audioSettingsForVideo() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVAssetWriterInput(mediaType: .video, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC])
        }
        #expect(Self.message(result).contains("Output settings for media type vide must not contain AVFormatIDKey"))
    }

    @Test func scalingModeFit() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            var settings = AssetWriterExitTests.video
            settings[AVVideoScalingModeKey] = AVVideoScalingModeFit
            _ = AVAssetWriterInput(mediaType: .video, outputSettings: settings)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException'"))
        #expect(Self.message(result).contains("AVVideoScalingModeFit is not supported"))
    }

    @Test func adaptorAfterStartWriting() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let writer = try! AVAssetWriter(outputURL: AssetWriterExitTests.url(), fileType: .mp4)
            let input = AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterExitTests.video)
            writer.add(input)
            writer.startWriting()
            _ = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        }
        #expect(Self.message(result).contains("Cannot create a new pixel buffer adaptor with an asset writer input that has already started writing"))
    }

    @Test func appendAfterMarkAsFinished() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let writer = try! AVAssetWriter(outputURL: AssetWriterExitTests.url(), fileType: .mp4)
            let input = AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterExitTests.video)
            let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
            writer.add(input)
            writer.startWriting()
            writer.startSession(atSourceTime: .zero)
            input.markAsFinished()
            adaptor.append(adaptor.pixelBufferPool.map { pool in
                var buffer: CVPixelBuffer?
                CVPixelBufferPoolCreatePixelBuffer(nil, pool, &buffer)
                return buffer!
            }!, withPresentationTime: .zero)
        }
        #expect(Self.message(result).contains("A sample cannot be appended after markAsFinished has been called"))
    }

    @Test func addingAnInputThatCannotBeAdded() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let writer = try! AVAssetWriter(outputURL: AssetWriterExitTests.url(), fileType: .m4a)
            writer.add(AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterExitTests.video))
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVAssetWriter addInput:] Cannot add an input with media type vide"))
    }
}
