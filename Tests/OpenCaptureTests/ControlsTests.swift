import Foundation
import Testing
import OpenCapture
import TestSupport

/// The iOS 18 capture controls by Apple's rules, with control surfaces as the Linux Camera
/// Control: sliders and pickers as values, adding them, their activity and users' changes.
@Suite("Controls: capture controls, their rules and a control surface's changes")
struct ControlsTests {
    final class ControlsDelegate: NSObject, AVCaptureSessionControlsDelegate {
        func sessionControlsDidBecomeActive(_ session: AVCaptureSession) {}
        func sessionControlsWillEnterFullscreenAppearance(_ session: AVCaptureSession) {}
        func sessionControlsWillExitFullscreenAppearance(_ session: AVCaptureSession) {}
        func sessionControlsDidBecomeInactive(_ session: AVCaptureSession) {}
    }

    @Test func sessionSupportsControls() {
        let session = AVCaptureSession()
        #expect(session.supportsControls)
        #expect(session.maxControlsCount == 6)
        #expect(session.controls.isEmpty)
        #expect(session.controlsDelegate == nil)
        #expect(session.controlsDelegateCallbackQueue == nil)
        #expect(!session.areControlsActive)
    }

    @Test("canAddControl: sliders and pickers need an action; one session each; at most maxControlsCount")
    func addingControlsFollowsApplesRules() throws {
        let session = AVCaptureSession()
        let slider = AVCaptureSlider("Level", symbolName: "dial.low", in: 0...10)
        #expect(!session.canAddControl(slider))
        slider.setActionQueue(DispatchQueue(label: "slider")) { _ in }
        #expect(session.canAddControl(slider))
        session.addControl(slider)
        #expect(session.controls == [slider])
        #expect(!session.canAddControl(slider), "already in the session")
        #expect(!AVCaptureSession().canAddControl(slider), "already in another session")
        let zoom = AVCaptureSystemZoomSlider(device: AVCaptureDevice.default(for: .video)!)
        #expect(session.canAddControl(zoom), "system sliders need no action")
        for index in 0..<5 {
            let picker = AVCaptureIndexPicker("Look \(index)", symbolName: "camera.filters", numberOfIndexes: 2)
            picker.setActionQueue(.main) { _ in }
            try session.addControlChecked(picker)
        }
        #expect(session.controls.count == 6)
        #expect(!session.canAddControl(zoom), "full")
        session.removeControl(slider)
        #expect(session.controls.count == 5)
        #expect(session.canAddControl(zoom))
        #expect(AVCaptureSession().canAddControl(slider), "free again once removed")
    }

    @Test func addControlCheckedGivesApplesReason() {
        let session = AVCaptureSession()
        let picker = AVCaptureIndexPicker("Look", symbolName: "camera.filters", numberOfIndexes: 3)
        do {
            try session.addControlChecked(picker)
            Issue.record("addControl succeeded without an action")
        } catch {
            #expect(error.name == .invalidArgument)
            #expect(error.reason.hasPrefix("*** -[AVCaptureSession addControl:] Can't add"))
        }
    }

    /// Records the controls delegate's calls in order, with whether each came on its queue.
    final class EventLog: NSObject, AVCaptureSessionControlsDelegate, @unchecked Sendable {
        let queue = DispatchQueue(label: "controls.delegate")
        private let lock = NSLock()
        private var recorded: [String] = []
        private func note(_ event: String) {
            dispatchPrecondition(condition: .onQueue(queue))
            lock.lock(); recorded.append(event); lock.unlock()
        }
        func sessionControlsDidBecomeActive(_ session: AVCaptureSession) { note("active") }
        func sessionControlsWillEnterFullscreenAppearance(_ session: AVCaptureSession) { note("enter") }
        func sessionControlsWillExitFullscreenAppearance(_ session: AVCaptureSession) { note("exit") }
        func sessionControlsDidBecomeInactive(_ session: AVCaptureSession) { note("inactive") }
        var events: [String] { queue.sync {}; lock.lock(); defer { lock.unlock() }; return recorded }
    }

    @Test("controls become active with a delegate, a control and a surface; the delegate hears Apple's events in order")
    func activityFollowsSurfaces() throws {
        let session = AVCaptureSession()
        let log = EventLog()
        let slider = AVCaptureSlider("Level", symbolName: "dial.low", in: 0...10)
        slider.setActionQueue(DispatchQueue(label: "slider")) { _ in }
        session.controlSurfaceDidAppear()
        session.addControl(slider)
        #expect(!session.areControlsActive, "no delegate yet")
        session.setControlsDelegate(log, queue: log.queue)
        #expect(session.areControlsActive)
        session.controlSurfaceInteraction(began: true)
        #expect(session.areControlsInFullscreenAppearance)
        session.controlSurfaceInteraction(began: false)
        session.controlSurfaceInteraction(began: true)
        session.controlSurfaceDidAppear()
        session.controlSurfaceDidDisappear()
        #expect(session.areControlsActive, "one surface is still there")
        session.controlSurfaceDidDisappear()
        #expect(!session.areControlsActive && !session.areControlsInFullscreenAppearance)
        session.controlSurfaceInteraction(began: true)
        #expect(!session.areControlsInFullscreenAppearance, "no interaction while inactive")
        #expect(log.events == ["active", "enter", "exit", "enter", "exit", "inactive"])
        session.controlSurfaceDidAppear()
        session.removeControl(slider)
        #expect(log.events == ["active", "enter", "exit", "enter", "exit", "inactive", "active", "inactive"])
    }

    @Test("a user's change from a surface snaps to the slider's steps and calls its action; code's changes do not")
    func userChangesCallTheAction() throws {
        let session = AVCaptureSession()
        let log = EventLog()
        session.setControlsDelegate(log, queue: log.queue)
        let stepped = AVCaptureSlider("Speed", symbolName: "speedometer", in: 0...100, step: 10)
        let queue = DispatchQueue(label: "slider")
        let heard = Recorded<Float>()
        stepped.setActionQueue(queue) { value in
            dispatchPrecondition(condition: .onQueue(queue))
            heard.append(value)
        }
        session.addControl(stepped)
        #expect(throws: AVCaptureException.self, "inactive: no surface") { try stepped.changeValueAsUser(40) }
        session.controlSurfaceDidAppear()
        #expect(try stepped.changeValueAsUser(43) == 40)
        #expect(try stepped.changeValueAsUser(250) == 100)
        stepped.value = 20
        queue.sync {}
        #expect(heard.values == [40, 100])
        #expect(stepped.value == 20)
        stepped.isEnabled = false
        #expect(throws: AVCaptureException.self, "disabled") { try stepped.changeValueAsUser(30) }
        let listed = AVCaptureSlider("Rate", symbolName: "timer", values: [24, 30, 60])
        listed.setActionQueue(queue) { _ in }
        session.addControl(listed)
        #expect(try listed.changeValueAsUser(50) == 60)
        #expect(listed.minimumValue == 24 && listed.maximumValue == 60 && listed.listedValues == [24, 30, 60] && listed.step == nil)
        #expect(stepped.step == 10 && stepped.listedValues == nil)
        let picker = AVCaptureIndexPicker("Look", symbolName: "camera.filters", localizedIndexTitles: ["A", "B", "C"])
        let picked = Recorded<Int>()
        picker.setActionQueue(queue) { index in picked.append(index) }
        session.addControl(picker)
        try picker.selectIndexAsUser(2)
        #expect(throws: AVCaptureException.self) { try picker.selectIndexAsUser(3) }
        queue.sync {}
        #expect(picker.selectedIndex == 2 && picked.values == [2])
    }

    @Test("the system sliders change their device and call their action on the main actor")
    func systemSlidersDriveTheirDevice() async throws {
        let camera = AVCaptureDevice.default(for: .video)!
        let session = AVCaptureSession()
        let log = EventLog()
        session.setControlsDelegate(log, queue: log.queue)
        let zoomed = Recorded<CGFloat>()
        let biased = Recorded<Float>()
        let zoom = AVCaptureSystemZoomSlider(device: camera) { factor in
            MainActor.assertIsolated()
            zoomed.append(factor)
        }
        let bias = AVCaptureSystemExposureBiasSlider(device: camera) { value in biased.append(value) }
        session.addControl(zoom)
        session.addControl(bias)
        session.controlSurfaceDidAppear()
        defer {
            try? camera.lockForConfiguration()
            camera.videoZoomFactor = 1
            camera.setExposureTargetBias(0)
            camera.unlockForConfiguration()
        }
        #expect(try zoom.changeZoomFactorAsUser(2.5) == 2.5)
        #expect(camera.videoZoomFactor == 2.5)
        #expect(try zoom.changeZoomFactorAsUser(10_000) == camera.maxAvailableVideoZoomFactor)
        #expect(try bias.changeExposureTargetBiasAsUser(-1) == -1)
        #expect(camera.exposureTargetBias == -1)
        await MainActor.run {}
        eventually("both actions ran") { zoomed.values.count == 2 && biased.values == [-1] }
        #expect(zoomed.values == [2.5, camera.maxAvailableVideoZoomFactor])
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

/// Values recorded from any thread, in order.
final class Recorded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Value] = []
    func append(_ value: Value) { lock.lock(); recorded.append(value); lock.unlock() }
    var values: [Value] { lock.lock(); defer { lock.unlock() }; return recorded }
}
