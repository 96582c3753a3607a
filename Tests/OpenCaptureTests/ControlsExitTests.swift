import Foundation
import Testing
import OpenCapture

/// Where Apple's controls raise, the process ends with Apple's message.
@Suite("Controls: Apple's exceptions end the process")
struct ControlsExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func addControlWithoutAction() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureSession().addControl(AVCaptureSlider("Level", symbolName: "dial.low", in: 0...1))
        }
        #expect(Self.message(result).contains(
            "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '*** -[AVCaptureSession addControl:] Can't add"))
    }

    @Test func sliderValueOutOfRange() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureSlider("Level", symbolName: "dial.low", in: 0...1).value = 2
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureSlider setValue:]"))
    }

    @Test func sliderWithEmptyRange() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVCaptureSlider("Level", symbolName: "dial.low", in: 1...1)
        }
        #expect(Self.message(result).contains("minValue must be less than maxValue"))
    }

    @Test func sliderWithZeroStep() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVCaptureSlider("Level", symbolName: "dial.low", in: 0...1, step: 0)
        }
        #expect(Self.message(result).contains("step must be greater than 0"))
    }

    @Test func pickerWithNoIndexes() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVCaptureIndexPicker("Look", symbolName: "camera.filters", numberOfIndexes: 0)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureIndexPicker initWithLocalizedTitle:symbolName:numberOfIndexes:]"))
    }

    @Test func pickerIndexOutOfRange() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureIndexPicker("Look", symbolName: "camera.filters", localizedIndexTitles: ["A"]).selectedIndex = 1
        }
        #expect(Self.message(result).contains("*** -[AVCaptureIndexPicker setSelectedIndex:]"))
    }

    @Test func controlsDelegateWithoutQueue() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureSession().setControlsDelegate(ControlsTests.ControlsDelegate(), queue: nil)
        }
        #expect(Self.message(result).contains("controlsDelegateCallbackQueue cannot be NULL"))
    }
}
