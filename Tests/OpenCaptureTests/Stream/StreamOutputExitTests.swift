import Foundation
import OpenCapture
import Testing

/// Misuse of the stream output raises NSInvalidArgumentException, in Apple's message shape.
@Suite("AVCaptureStreamOutput: misuse ends the process")
struct StreamOutputExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func nonPositiveBitRate() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureStreamOutput().averageBitRate = 0
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureStreamOutput setAverageBitRate:]"))
    }

    @Test func unsupportedCodec() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureStreamOutput().videoCodecType = .jpeg
        }
        #expect(Self.message(result).contains("reason: '*** -[AVCaptureStreamOutput setVideoCodecType:] Unsupported codec jpeg"))
    }

    @Test func delegateWithoutQueue() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            final class Listener: NSObject, AVCaptureStreamOutputDelegate {}
            AVCaptureStreamOutput().setDelegate(Listener(), queue: nil)
        }
        #expect(Self.message(result).contains("reason: '*** -[AVCaptureStreamOutput setDelegate:queue:] Cannot set a delegate without a queue"))
    }
}
