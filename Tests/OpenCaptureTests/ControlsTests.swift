import Foundation
import Testing
import OpenCapture

/// The iOS 18 capture controls answer as on an iPhone without a Camera Control, and work as
/// values by Apple's rules.
@Suite("Controls: sessions without a Camera Control, sliders and pickers as values")
struct ControlsTests {
    final class ControlsDelegate: NSObject, AVCaptureSessionControlsDelegate {
        func sessionControlsDidBecomeActive(_ session: AVCaptureSession) {}
        func sessionControlsWillEnterFullscreenAppearance(_ session: AVCaptureSession) {}
        func sessionControlsWillExitFullscreenAppearance(_ session: AVCaptureSession) {}
        func sessionControlsDidBecomeInactive(_ session: AVCaptureSession) {}
    }

    @Test func sessionHasNoControls() {
        let session = AVCaptureSession()
        #expect(!session.supportsControls)
        #expect(session.maxControlsCount == 0)
        #expect(session.controls.isEmpty)
        #expect(session.controlsDelegate == nil)
        #expect(session.controlsDelegateCallbackQueue == nil)
    }

    @Test func noControlCanBeAdded() {
        let session = AVCaptureSession()
        let slider = AVCaptureSlider("Level", symbolName: "dial.low", in: 0...10)
        slider.setActionQueue(DispatchQueue(label: "slider")) { _ in }
        let picker = AVCaptureIndexPicker("Look", symbolName: "camera.filters", localizedIndexTitles: ["A", "B"])
        picker.setActionQueue(DispatchQueue(label: "picker")) { _ in }
        let zoom = AVCaptureSystemZoomSlider(device: AVCaptureDevice.default(for: .video)!)
        #expect(!session.canAddControl(slider))
        #expect(!session.canAddControl(picker))
        #expect(!session.canAddControl(zoom))
        #expect(throws: AVCaptureException.self) { try session.addControlChecked(slider) }
        session.removeControl(slider)
        #expect(session.controls.isEmpty)
    }

    @Test func addControlCheckedGivesApplesReason() {
        let session = AVCaptureSession()
        let picker = AVCaptureIndexPicker("Look", symbolName: "camera.filters", numberOfIndexes: 3)
        do {
            try session.addControlChecked(picker)
            Issue.record("addControl succeeded")
        } catch {
            #expect(error.name == .invalidArgument)
            #expect(error.reason.hasPrefix("*** -[AVCaptureSession addControl:] Can't add"))
        }
    }

    @Test func controlsDelegateIsKeptWeaklyWithItsQueue() throws {
        let session = AVCaptureSession()
        let delegate = ControlsDelegate()
        let queue = DispatchQueue(label: "controls")
        session.setControlsDelegate(delegate, queue: queue)
        #expect(session.controlsDelegate === delegate)
        #expect(session.controlsDelegateCallbackQueue === queue)
        #expect(throws: AVCaptureException.self) { try session.setControlsDelegateChecked(delegate, queue: nil) }
        session.setControlsDelegate(nil, queue: nil)
        #expect(session.controlsDelegate == nil)
        #expect(session.controlsDelegateCallbackQueue == nil)
    }

    @Test func continuousSliderStartsAtItsMinimum() throws {
        let slider = AVCaptureSlider("Level", symbolName: "dial.low", in: -2...3)
        #expect(slider.value == -2)
        #expect(slider.isEnabled)
        #expect(slider.localizedTitle == "Level")
        #expect(slider.symbolName == "dial.low")
        #expect(slider.localizedValueFormat == nil)
        #expect(slider.prominentValues.isEmpty)
        #expect(slider.accessibilityIdentifier == nil)
        slider.value = 3
        #expect(slider.value == 3)
        slider.value = 0.25
        #expect(slider.value == 0.25)
        #expect(throws: AVCaptureException.self) { try slider.setValue(3.5) }
        #expect(throws: AVCaptureException.self) { try slider.setValue(.nan) }
        #expect(slider.value == 0.25)
        slider.localizedValueFormat = "%@ fps"
        slider.prominentValues = [0, 1]
        slider.accessibilityIdentifier = "level"
        slider.isEnabled = false
        #expect(slider.localizedValueFormat == "%@ fps")
        #expect(slider.prominentValues == [0, 1])
        #expect(slider.accessibilityIdentifier == "level")
        #expect(!slider.isEnabled)
    }

    @Test func steppedAndListedSlidersKeepTheirBounds() throws {
        let stepped = AVCaptureSlider("Speed", symbolName: "speedometer", in: 0...100, step: 10)
        #expect(stepped.value == 0)
        stepped.value = 40
        #expect(stepped.value == 40)
        #expect(throws: AVCaptureException.self) { try stepped.setValue(110) }
        let listed = AVCaptureSlider("Rate", symbolName: "timer", values: [60, 24, 30])
        #expect(listed.value == 24)
        listed.value = 60
        #expect(listed.value == 60)
        #expect(throws: AVCaptureException.self) { try listed.setValue(23) }
    }

    @Test func settingValueFromCodeDoesNotCallTheAction() async throws {
        let slider = AVCaptureSlider("Level", symbolName: "dial.low", in: 0...1)
        let calls = Counter()
        let queue = DispatchQueue(label: "slider")
        slider.setActionQueue(queue) { _ in calls.add() }
        slider.value = 0.5
        queue.sync {}
        #expect(calls.count == 0)
    }

    @Test func pickerIndexRules() throws {
        let picker = AVCaptureIndexPicker("Look", symbolName: "camera.filters", numberOfIndexes: 3) { "Look \($0 + 1)" }
        #expect(picker.selectedIndex == 0)
        #expect(picker.numberOfIndexes == 3)
        #expect(picker.localizedIndexTitles == ["Look 1", "Look 2", "Look 3"])
        picker.selectedIndex = 2
        #expect(picker.selectedIndex == 2)
        #expect(throws: AVCaptureException.self) { try picker.setSelectedIndex(3) }
        #expect(throws: AVCaptureException.self) { try picker.setSelectedIndex(-1) }
        #expect(picker.selectedIndex == 2)
        let untitled = AVCaptureIndexPicker("Count", symbolName: "number", numberOfIndexes: 2)
        #expect(untitled.localizedIndexTitles.isEmpty)
        let titled = AVCaptureIndexPicker("Mode", symbolName: "circle", localizedIndexTitles: ["Off", "On"])
        #expect(titled.numberOfIndexes == 2)
        #expect(titled.localizedTitle == "Mode")
        #expect(titled.symbolName == "circle")
    }

    @Test func systemSlidersTakeDevicesThatCanChange() {
        let device = AVCaptureDevice.default(for: .video)!
        let zoom = AVCaptureSystemZoomSlider(device: device) { _ in }
        let bias = AVCaptureSystemExposureBiasSlider(device: device) { _ in }
        #expect(zoom.device == device)
        #expect(bias.device == device)
        #expect(zoom.isEnabled && bias.isEnabled)
    }
}

/// A thread-safe call counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.lock(); value += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
}
