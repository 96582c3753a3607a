import Foundation
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture

@Suite("KVO of changes the camera makes", .serialized)
struct KVOCameraDrivenTests {
    @Test("an autofocus search turns isAdjustingFocus on, moves the lens, then off, on the device's KVO queue")
    func autofocusSearch() throws {
        let rig = try TestRig(uniqueID: "sim:back-wide", preset: .vga640x480)
        rig.session.startRunning()
        try rig.collector.waitForFrames(3)
        // Start from a still lens away from the subject, whatever earlier tests left.
        try rig.device.lockForConfiguration()
        rig.device.setFocusModeLocked(lensPosition: 0.1)
        rig.device.unlockForConfiguration()
        eventually("the lens is locked at 0.1 and still") {
            rig.device.focusMode == .locked && !rig.device.isAdjustingFocus && abs(rig.device.lensPosition - 0.1) < 0.001
        }
        let adjusting = KVORecorder()
        let lens = KVORecorder()
        let observations = [
            rig.device.observe(\.isAdjustingFocus, options: [.old, .new, .prior]) { _, change in adjusting.record(change) },
            rig.device.observe(\.lensPosition, options: .new) { _, change in lens.record(change) },
        ]
        try rig.device.lockForConfiguration()
        rig.device.focusMode = .autoFocus
        rig.device.unlockForConfiguration()
        eventually("isAdjustingFocus went true and back to false") {
            adjusting.calls.filter { !$0.isPrior }.map(\.new) == ["true", "false"]
        }
        let calls = adjusting.calls
        #expect(calls.map(\.isPrior) == [true, false, true, false], "each change: the prior call, then the change")
        #expect(calls.first?.old == "false" && calls.first?.new == nil)
        #expect(lens.calls.count >= 3, "the lens moved during the search")
        #expect((calls + lens.calls).allSatisfy { $0.queue == "OpenCapture.kvo.sim:back-wide" })
        observations.forEach { $0.invalidate() }
        rig.stop()
    }

    @Test("a key path no table lists, observed alone, follows the camera's own changes (the lens during a search)")
    func unlistedKeyPathFollowsCameraChanges() throws {
        let rig = try TestRig(uniqueID: "sim:back-wide", preset: .vga640x480)
        rig.session.startRunning()
        defer { rig.stop() }
        try rig.collector.waitForFrames(3)
        try rig.device.lockForConfiguration()
        rig.device.setFocusModeLocked(lensPosition: 0.1)
        rig.device.unlockForConfiguration()
        eventually("the lens is locked at 0.1 and still") {
            rig.device.focusMode == .locked && !rig.device.isAdjustingFocus && abs(rig.device.lensPosition - 0.1) < 0.001
        }
        // `lensPosition.magnitude` is in no table: only the derived re-read can see it move.
        let lens = KVORecorder()
        let observation = rig.device.observe(\.lensPosition.magnitude, options: [.old, .new]) { _, change in lens.record(change) }
        defer { observation.invalidate() }
        try rig.device.lockForConfiguration()
        rig.device.focusMode = .autoFocus
        rig.device.unlockForConfiguration()
        eventually("the search moved the lens and was announced") { lens.calls.filter { !$0.isPrior }.count >= 2 }
        let calls = lens.calls.filter { !$0.isPrior }
        #expect(Double(calls.first?.old ?? "").map { abs($0 - 0.1) < 0.001 } == true, "starts from the locked lens: \(calls)")
        #expect(calls.allSatisfy { $0.queue == "OpenCapture.kvo.sim:back-wide" }, "on the device's KVO queue, as the lens's own key")
    }

    @Test("a virtual device's activePrimaryConstituent notifies when the zoom crosses a switch-over factor")
    func constituentSwitch() throws {
        let rig = try LumaRig(uniqueID: "sim:back-dualwide")
        rig.session.startRunning()
        defer { rig.stop() }
        _ = try rig.frame(atZoom: 1, settle: 2)
        let recorder = KVORecorder()
        let observation = rig.device.observe(\.activePrimaryConstituent, options: .new) { _, change in recorder.record(change) }
        defer { observation.invalidate() }
        _ = try rig.frame(atZoom: 3, settle: 2)
        eventually("the switch to the wide camera was announced") {
            recorder.calls.contains { $0.new?.contains("[sim:back-wide]") == true }
        }
        // The setter moved it, so it is announced on the setter's thread, once.
        #expect(recorder.calls.map(\.queue) == ["caller"])
    }

    @Test("auto exposure converging after a bias change: isAdjustingExposure and exposureTargetOffset notify, the string form too")
    func exposureConverging() throws {
        let rig = try TestRig(uniqueID: "sim:back-wide", preset: .vga640x480)
        rig.session.startRunning()
        try rig.collector.waitForFrames(30)
        let adjusting = KVORecorder()
        let observation = rig.device.observe(\.isAdjustingExposure, options: .new) { _, change in adjusting.record(change) }
        let observer = StringObserver()
        rig.device.addObserver(observer, forKeyPath: "exposureTargetOffset", options: [.new], context: nil)
        try rig.device.lockForConfiguration()
        rig.device.setExposureTargetBias(2)
        rig.device.unlockForConfiguration()
        eventually("auto exposure adjusted and settled") {
            let values = adjusting.calls.map(\.new)
            return values.first == "true" && values.last == "false"
        }
        #expect(observer.recorder.calls.count >= 2, "the offset moved while exposure converged")
        #expect(observer.keyPaths.withLock { $0 }.allSatisfy { $0 == "exposureTargetOffset" })
        rig.device.removeObserver(observer, forKeyPath: "exposureTargetOffset")
        observation.invalidate()
        try rig.device.lockForConfiguration()
        rig.device.setExposureTargetBias(0)
        rig.device.unlockForConfiguration()
        rig.stop()
    }

    @Test("unplugging: isConnected turns false on the KVO queue; the session's isRunning turns false off the caller's thread")
    func unplug() throws {
        let rig = try TestRig(uniqueID: "sim:back-tele", preset: .vga640x480)
        rig.session.startRunning()
        try rig.collector.waitForFrames(5)
        let connected = KVORecorder()
        let running = KVORecorder()
        let observations = [
            rig.device.observe(\.isConnected, options: [.old, .new]) { _, change in connected.record(change) },
            rig.session.observe(\.isRunning, options: .new) { _, change in running.record(change) },
        ]
        rig.device.simulation?.disconnect()
        eventually("isConnected and isRunning notified") { !connected.calls.isEmpty && !running.calls.isEmpty }
        #expect(connected.calls.map(\.new) == ["false"] && connected.calls.first?.old == "true")
        #expect(connected.calls.first?.queue == "OpenCapture.kvo.sim:back-tele")
        #expect(running.calls.map(\.new) == ["false"])
        observations.forEach { $0.invalidate() }
        _ = rig.device.simulation?.reconnect()
    }

    @Test("nobody observing: the frame path finds no observer and announces nothing")
    func zeroCostWhenUnobserved() throws {
        let rig = try TestRig(uniqueID: "sim:back-wide", preset: .vga640x480)
        #expect(!rig.device.keyValueObservers.isObserved)
        #expect(rig.device.watchFrameChanges() == nil)
        rig.session.startRunning()
        try rig.collector.waitForFrames(3)
        #expect(!rig.device.keyValueObservers.isObserved)
        rig.stop()
    }
}

/// The class properties, as AVCam observes them: `AVCaptureDevice.self.observe(\.systemPreferredCamera)`.
@Suite("KVO of AVCaptureDevice's class properties", .serialized)
struct KVOClassPropertyTests {
    @Test("setting userPreferredCamera notifies both class properties on the setter's thread; unplugging the preferred camera notifies on the class queue")
    func preferredCameras() throws {
        let back = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let front = try #require(AVCaptureDevice(uniqueID: "sim:front-wide"))
        AVCaptureDevice.userPreferredCamera = back
        defer { AVCaptureDevice.userPreferredCamera = AVCaptureDevice(uniqueID: "sim:back-wide") }
        let system = KVORecorder()
        let user = KVORecorder()
        let observations = [
            AVCaptureDevice.self.observe(\.systemPreferredCamera, options: [.initial, .new]) { _, change in system.record(change) },
            AVCaptureDevice.self.observe(\.userPreferredCamera, options: [.new]) { _, change in user.record(change) },
        ]
        defer { observations.forEach { $0.invalidate() } }
        AVCaptureDevice.userPreferredCamera = front
        AVCaptureDevice.userPreferredCamera = front  // the same camera again: nothing changes
        #expect(system.calls.map { $0.new?.contains("[sim:front-wide]") == true } == [false, true])
        #expect(user.calls.count == 1 && user.calls.allSatisfy { $0.queue == "caller" })
        // Unplugging the preferred camera hands the preference back to the default camera.
        front.simulation?.disconnect()
        defer { _ = front.simulation?.reconnect() }
        eventually("the system's preference moved off the unplugged camera") {
            system.calls.last?.new?.contains("[sim:back-wide]") == true
        }
        #expect(system.calls.last?.queue == "OpenCapture.kvo.AVCaptureDevice")
    }
}
