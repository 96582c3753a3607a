import Foundation
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture

/// A context pointer value, as iOS code makes one with `&someStatic`.
private nonisolated(unsafe) var testContext = 0

@Suite("KVO options, ordering and ending", .serialized)
struct KVOOptionsTests {
    @Test(".initial calls at once, before observe returns, with the current value")
    func initial() {
        let session = AVCaptureSession()
        let recorder = KVORecorder()
        let observation = session.observe(\.isRunning, options: [.initial, .new]) { _, change in recorder.record(change) }
        #expect(recorder.calls.count == 1)
        #expect(recorder.calls.first?.new == "false" && recorder.calls.first?.old == nil && recorder.calls.first?.isPrior == false)
        observation.invalidate()
    }

    @Test(".prior gives a before-change call (isPrior, old value, no new value) then the change; the property still reads the old value in the prior call")
    func priorOldNew() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        device.videoZoomFactor = 1
        let seenInPrior = Mutex<CGFloat?>(nil)
        let recorder = KVORecorder()
        let observation = device.observe(\.videoZoomFactor, options: [.prior, .old, .new]) { device, change in
            if change.isPrior { seenInPrior.withLock { $0 = device.videoZoomFactor } }
            recorder.record(change)
        }
        device.videoZoomFactor = 2
        let calls = recorder.calls
        #expect(calls.count == 2)
        #expect(calls.first.map { $0.isPrior && $0.old == "1.0" && $0.new == nil } == true)
        #expect(calls.last.map { !$0.isPrior && $0.old == "1.0" && $0.new == "2.0" } == true)
        #expect(seenInPrior.withLock { $0 } == 1)
        // A setter notifies on the thread that set it, before it returns.
        #expect(calls.allSatisfy { $0.queue == currentQueueLabel() })
        observation.invalidate()
        device.videoZoomFactor = 1
    }

    @Test("without options the handler gets neither value; without .prior no before-change call")
    func noOptions() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        let recorder = KVORecorder()
        let observation = device.observe(\.torchMode) { _, change in recorder.record(change) }
        device.torchMode = .on
        device.torchMode = .off
        #expect(recorder.calls.count == 2)
        #expect(recorder.calls.allSatisfy { $0.old == nil && $0.new == nil && !$0.isPrior })
        observation.invalidate()
    }

    @Test("invalidate() ends an observation; so does releasing it; then the frame path sees nobody")
    func invalidateAndRelease() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        #expect(!device.keyValueObservers.isObserved)
        let recorder = KVORecorder()
        let observation = device.observe(\.videoZoomFactor, options: .new) { _, change in recorder.record(change) }
        #expect(device.keyValueObservers.isObserved)
        device.videoZoomFactor = 1.5
        observation.invalidate()
        observation.invalidate()  // twice is harmless
        device.videoZoomFactor = 1
        #expect(recorder.calls.map(\.new) == ["1.5"])
        #expect(!device.keyValueObservers.isObserved)

        let released = KVORecorder()
        do {
            let scoped = device.observe(\.videoZoomFactor, options: .new) { _, change in released.record(change) }
            device.videoZoomFactor = 1.25
            _ = scoped
        }
        device.videoZoomFactor = 1
        #expect(released.calls.map(\.new) == ["1.25"])
        #expect(!device.keyValueObservers.isObserved)
    }

    @Test("another handle on the same device sees the same observers")
    func sharedAcrossHandles() throws {
        let first = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        let second = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        let recorder = KVORecorder()
        let observation = first.observe(\.isSubjectAreaChangeMonitoringEnabled, options: [.old, .new]) { _, change in recorder.record(change) }
        try second.lockForConfiguration()
        second.isSubjectAreaChangeMonitoringEnabled = true
        second.isSubjectAreaChangeMonitoringEnabled = false
        second.unlockForConfiguration()
        #expect(recorder.calls.map(\.new) == ["true", "false"])
        observation.invalidate()
    }

    @Test("the string form: Apple's key strings, the change dictionary, context, removeObserver")
    func stringForm() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        let observer = StringObserver()
        device.addObserver(observer, forKeyPath: "videoZoomFactor", options: [.old, .new, .prior, .initial], context: &testContext)
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        device.videoZoomFactor = 3
        device.removeObserver(observer, forKeyPath: "videoZoomFactor", context: &testContext)
        device.videoZoomFactor = 1
        let calls = observer.recorder.calls
        #expect(calls.count == 3)  // initial, prior, after
        #expect(calls[0].new == "1.0" && calls[0].old == nil && !calls[0].isPrior)
        #expect(calls[1].isPrior && calls[1].old == "1.0" && calls[1].new == nil)
        #expect(!calls[2].isPrior && calls[2].old == "1.0" && calls[2].new == "3.0")
        #expect(observer.keyPaths.withLock { $0 }.allSatisfy { $0 == "videoZoomFactor" })
        #expect(observer.contexts.withLock { $0 }.allSatisfy { $0 == UnsafeMutableRawPointer(&testContext) })
        #expect(!device.keyValueObservers.isObserved)
    }

    @Test("string keys follow Apple's spelling: ISO, adjustingFocus, torchActive, running")
    func appleKeyStrings() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        for key in ["ISO", "adjustingFocus", "adjustingExposure", "adjustingWhiteBalance", "torchActive", "rampingVideoZoom",
                    "lensPosition", "exposureDuration", "exposureTargetOffset", "deviceWhiteBalanceGains", "torchLevel",
                    "systemPressureState", "connected", "activeFormat", "subjectAreaChangeMonitoringEnabled"] {
            #expect(device.observableKeyTable.value(of: key, on: device) != nil, "\(key)")
        }
        let session = AVCaptureSession()
        #expect(session.observableKeyTable.value(of: "running", on: session) != nil)
        #expect(session.observableKeyTable.value(of: "interrupted", on: session) != nil)
        let recorder = KVORecorder()
        let observation = device.observe(\.iso, options: .initial) { _, change in recorder.record(change) }
        #expect(recorder.calls.count == 1)
        observation.invalidate()
    }

    @Test("session isRunning: start and stop notify on the caller's thread before they return")
    func sessionRunning() throws {
        let rig = try TestRig(uniqueID: "sim:back-wide")
        let recorder = KVORecorder()
        let observation = rig.session.observe(\.isRunning, options: [.old, .new, .prior]) { _, change in recorder.record(change) }
        rig.session.startRunning()
        #expect(recorder.calls.map(\.isPrior) == [true, false])
        #expect(recorder.calls.last?.new == "true" && recorder.calls.last?.old == "false")
        rig.stop()
        #expect(recorder.calls.count == 4 && recorder.calls.last?.new == "false")
        #expect(recorder.calls.allSatisfy { $0.queue == currentQueueLabel() })
        observation.invalidate()
    }
}

@Suite("KVO of connections", .serialized)
struct KVOConnectionTests {
    @Test("videoRotationAngle and isEnabled notify with old and new values")
    func rotationAndEnabled() throws {
        let rig = try TestRig(uniqueID: "sim:back-wide", preset: .vga640x480)
        let angles = KVORecorder()
        let enabled = KVORecorder()
        let observations = [
            rig.connection.observe(\.videoRotationAngle, options: [.old, .new]) { _, change in angles.record(change) },
            rig.connection.observe(\.isEnabled, options: [.new, .prior]) { _, change in enabled.record(change) },
        ]
        rig.connection.videoRotationAngle = 90
        rig.connection.isEnabled = false
        rig.connection.isEnabled = true
        rig.connection.videoRotationAngle = 0
        #expect(angles.calls.map(\.new) == ["90.0", "0.0"] && angles.calls.map(\.old) == ["0.0", "90.0"])
        #expect(enabled.calls.map(\.isPrior) == [true, false, true, false])
        #expect(enabled.calls.filter { !$0.isPrior }.map(\.new) == ["false", "true"])
        observations.forEach { $0.invalidate() }
    }
}
