import Foundation
import Testing

@testable import OpenCapture

/// Asset-writer raises checked against AVAssetWriterInput.h and Apple's runtime reasons
/// (docs/avfoundation-api.md section 9): what the header allows does not end the process,
/// what it forbids raises with Apple's reason.
@Suite("Asset writer raises follow Apple's header")
struct AssetWriterHeaderRaiseTests {
    static var aac: [String: Any] { [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1] }

    @Test("mediaTimeScale = 0 on an audio input is allowed (\"It is an error to set a value other than 0\")")
    func zeroMediaTimeScaleOnAudio() async {
        // This raised "Cannot set a media time scale for an audio input" for every value.
        await #expect(processExitsWith: .success) {
            let input = AVAssetWriterInput(mediaType: .audio, outputSettings: AssetWriterHeaderRaiseTests.aac)
            input.mediaTimeScale = 0
            precondition(input.mediaTimeScale == 0)
        }
    }

    @Test("mediaTimeScale other than 0 on an audio input raises NSInvalidArgumentException")
    func nonZeroMediaTimeScaleOnAudio() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVAssetWriterInput(mediaType: .audio, outputSettings: AssetWriterHeaderRaiseTests.aac).mediaTimeScale = 600
        }
        #expect(AssetWriterExitTests.message(result).contains(
            "'NSInvalidArgumentException', reason: '*** -[AVAssetWriterInput setMediaTimeScale:] Cannot set a media time scale other than 0 for an audio input'"))
    }

    @Test("mediaTimeScale on a video input is kept")
    func mediaTimeScaleOnVideo() {
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterExitTests.video)
        input.mediaTimeScale = 600
        #expect(input.mediaTimeScale == 600)
    }

    @Test("a buffer without an image appended to a video input with output settings: Apple's reason")
    func compressedBufferOnAVideoInput() throws {
        let writer = try AVAssetWriter(outputURL: AssetWriterFixture.temporaryURL("mp4"), fileType: .mp4)
        defer { writer.cancelWriting() }
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterExitTests.video)
        writer.add(input)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        let sample = AssetWriterFixture.audioSample(AssetWriterFixture.tone(first: 0, count: 480), at: .zero)
        #expect(throws: AVCaptureException(.invalidArgument,
            "*** -[AVAssetWriterInput appendSampleBuffer:] Cannot append sample buffer: Input buffer must be in an uncompressed format when outputSettings is not nil")
        ) { try input.appendChecked(sample) }
    }
}
