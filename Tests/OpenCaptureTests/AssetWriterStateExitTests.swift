import Foundation
import Testing

@testable import OpenCapture

/// The writer-state raises of issue 30 ("missing raises"): a second `finishWriting` while
/// the first finishes, `markAsFinished` and `requestMediaDataWhenReady` outside a started
/// writer, and a second `requestMediaDataWhenReady`, with Apple's exception and reason.
@Suite("Asset writer state raises end the process as Apple's runtime does")
struct AssetWriterStateExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    static var video: [String: Any] { [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 64] }

    static func url() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent("oc-state-exit-\(UUID().uuidString).mp4") }

    /// A writer with one video input, writing, its session started.
    static func writing() -> (AVAssetWriter, AVAssetWriterInput) {
        let writer = try! AVAssetWriter(outputURL: url(), fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: video)
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        return (writer, input)
    }

    @Test func secondFinishWritingWhileFinishing() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (writer, _) = AssetWriterStateExitTests.writing()
            writer.finishWriting {}
            writer.finishWriting {}
        }
        // With nothing written the first finish may already have completed (status 2) when
        // the second call comes, on a busy machine; either way the second call raises.
        let reason = "'NSInternalInconsistencyException', reason: '*** -[AVAssetWriter finishWritingWithCompletionHandler:] Cannot call method when status is "
        let message = Self.message(result)
        #expect(message.contains(reason + "1'") || message.contains(reason + "2'"), "\(message)")
    }

    @Test func markAsFinishedBeforeStartWriting() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let writer = try! AVAssetWriter(outputURL: AssetWriterStateExitTests.url(), fileType: .mp4)
            let input = AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterStateExitTests.video)
            writer.add(input)
            input.markAsFinished()
        }
        #expect(Self.message(result).contains("'NSInternalInconsistencyException', reason: '*** -[AVAssetWriterInput markAsFinished] Cannot call method when status is 0'"))
    }

    @Test func markAsFinishedOutsideAWriter() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterStateExitTests.video).markAsFinished()
        }
        #expect(Self.message(result).contains("'NSInternalInconsistencyException', reason: '*** -[AVAssetWriterInput markAsFinished] Cannot call method before the input has been added to an asset writer"))
    }

    @Test func markAsFinishedAfterTheWriterCompleted() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (writer, input) = AssetWriterStateExitTests.writing()
            let done = DispatchSemaphore(value: 0)
            writer.finishWriting { done.signal() }
            done.wait()
            input.markAsFinished()
        }
        #expect(Self.message(result).contains("'NSInternalInconsistencyException', reason: '*** -[AVAssetWriterInput markAsFinished] Cannot call method when status is 2'"))
    }

    @Test func requestMediaDataBeforeStartWriting() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let writer = try! AVAssetWriter(outputURL: AssetWriterStateExitTests.url(), fileType: .mp4)
            let input = AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterStateExitTests.video)
            writer.add(input)
            input.requestMediaDataWhenReady(on: DispatchQueue(label: "feed")) {}
        }
        #expect(Self.message(result).contains("'NSInternalInconsistencyException', reason: '*** -[AVAssetWriterInput requestMediaDataWhenReadyOnQueue:usingBlock:] Cannot call method when status is 0'"))
    }

    @Test func requestMediaDataTwice() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (_, input) = AssetWriterStateExitTests.writing()
            let queue = DispatchQueue(label: "feed")
            input.requestMediaDataWhenReady(on: queue) {}
            input.requestMediaDataWhenReady(on: queue) {}
        }
        #expect(Self.message(result).contains("'NSInternalInconsistencyException', reason: '*** -[AVAssetWriterInput requestMediaDataWhenReadyOnQueue:usingBlock:] This method may not be called more than once'"))
    }

    /// What the header allows still works: marking an input finished while writing (twice),
    /// then finishing, ends without a trap and completes the file.
    @Test func markAsFinishedWhileWriting() async {
        await #expect(processExitsWith: .success) {
            let (writer, input) = AssetWriterStateExitTests.writing()
            input.markAsFinished()
            input.markAsFinished()
            let done = DispatchSemaphore(value: 0)
            writer.finishWriting { done.signal() }
            done.wait()
            if writer.status != .completed { exit(1) }
        }
    }
}
