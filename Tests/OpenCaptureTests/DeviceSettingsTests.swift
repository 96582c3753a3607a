import Foundation
import Synchronization
import Testing
@testable import OpenCapture

/// The device's settings by concern and the one checked-setter path (`changeProperty`):
/// a mode acknowledged by its request id, the lock rule with its announcements, and the
/// order of a consequence key's notifications.
@Suite("Device settings and the checked setter", .serialized)
struct DeviceSettingsTests {
    @Test("a mode asked for answers until a frame acknowledges its request; then the frame's settling counts")
    func requestedModeIsAcknowledgedByRequestID() {
        var frame = FrameMetadata()
        frame.appliedRequest = 4
        frame.exposureState = .locked
        frame.whiteBalanceState = .locked
        frame.focusState = .locked

        var exposure = ExposureSettings()
        exposure.mode = Requested(.autoExpose, request: 5)
        var whiteBalance = WhiteBalanceSettings()
        whiteBalance.mode = Requested(.autoWhiteBalance, request: 5)
        var focus = FocusSettings()
        #expect(focus.mode(after: frame, fallback: .continuousAutoFocus) == .continuousAutoFocus, "nothing set: the default")
        focus.mode = Requested(.autoFocus, request: 5)

        // Frame 4 was made before request 5: its settled state is not the new request's.
        #expect(exposure.mode(after: frame) == .autoExpose)
        #expect(whiteBalance.mode(after: frame) == .autoWhiteBalance)
        #expect(focus.mode(after: frame, fallback: .continuousAutoFocus) == .autoFocus)

        frame.appliedRequest = 5
        #expect(exposure.mode(after: frame) == .locked)
        #expect(whiteBalance.mode(after: frame) == .locked)
        #expect(focus.mode(after: frame, fallback: .continuousAutoFocus) == .locked)

        frame.exposureState = .autoOnce
        frame.whiteBalanceState = .autoOnce
        frame.focusState = .autoOnce
        #expect(exposure.mode(after: frame) == .autoExpose, "acknowledged but still adjusting")
        #expect(whiteBalance.mode(after: frame) == .autoWhiteBalance)
        #expect(focus.mode(after: frame, fallback: .continuousAutoFocus) == .autoFocus)
    }

    @Test("without the lock a setter announces before and after, then throws NSGenericException; with it the value lands")
    func lockRuleAnnouncesAndThrows() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:front-wide"))
        let recorder = KVORecorder()
        let observation = device.observe(\.isSubjectAreaChangeMonitoringEnabled, options: [.prior, .old, .new]) { _, change in
            recorder.record(change)
        }
        defer { observation.invalidate() }

        #expect(throws: AVCaptureException(.generic, "*** -[AVCaptureDevice setSubjectAreaChangeMonitoringEnabled:] May not be called without first successfully calling -lockForConfiguration:")) {
            try device.setSubjectAreaChangeMonitoringEnabled(true)
        }
        #expect(!device.isSubjectAreaChangeMonitoringEnabled)
        #expect(recorder.calls.map(\.isPrior) == [true, false], "announced around the refused call, as before")
        #expect(recorder.calls.map(\.new) == [nil, "false"])

        try device.lockForConfiguration()
        defer {
            try? device.setSubjectAreaChangeMonitoringEnabled(false)
            device.unlockForConfiguration()
        }
        try device.setSubjectAreaChangeMonitoringEnabled(true)
        #expect(device.isSubjectAreaChangeMonitoringEnabled)
        #expect(recorder.calls.suffix(2).map(\.isPrior) == [true, false])
        #expect(recorder.calls.last?.new == "true")
    }

    @Test("transport controls announce only an accepted change: no notification for a call without the lock or a refused speed")
    func transportAnnouncesAfterItsChecks() throws {
        let url = try DeckFixture.clip("announce.mp4", frames: 3, ["-c:v", "libx264", "-preset", "ultrafast"])
        let device = try AVCaptureDevice.fileDeck(url: url)
        let log = Mutex<[String]>([])
        let speed = device.observe(\.transportControlsSpeed, options: [.prior]) { _, change in
            log.withLock { $0.append(change.isPrior ? "speed prior" : "speed after") }
        }
        let mode = device.observe(\.transportControlsPlaybackMode, options: [.prior]) { _, change in
            log.withLock { $0.append(change.isPrior ? "mode prior" : "mode after") }
        }
        defer {
            speed.invalidate()
            mode.invalidate()
        }

        #expect(throws: AVCaptureException(.generic, "*** -[AVCaptureDevice setTransportControlsPlaybackMode:speed:] May not be called without first successfully calling -lockForConfiguration:")) {
            try device.setTransportControlsPlaybackModeChecked(.notPlaying, speed: 2)
        }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        #expect(throws: AVCaptureException.self) { try device.setTransportControlsPlaybackModeChecked(.notPlaying, speed: 16) }
        #expect(log.withLock { $0 }.isEmpty, "a refused call announces nothing")
        #expect(device.transportControlsSpeed != 2 && device.transportControlsSpeed != 16)

        try device.setTransportControlsPlaybackModeChecked(.notPlaying, speed: 2)
        #expect(device.transportControlsSpeed == 2)
        #expect(log.withLock { $0 } == ["mode prior", "speed prior", "mode after", "speed after"])
    }

    @Test("a zoom that moves a virtual device's constituent announces the constituent inside the zoom's announcement")
    func consequenceKeyIsAnnouncedBeforeTheSetKeys() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-dualwide"))
        try device.lockForConfiguration()
        defer {
            device.videoZoomFactor = 1
            device.unlockForConfiguration()
        }
        device.videoZoomFactor = 1
        #expect(device.activePrimaryConstituent?.uniqueID == "sim:back-ultrawide")
        let log = Mutex<[String]>([])
        let zoom = device.observe(\.videoZoomFactor, options: [.prior]) { _, change in
            log.withLock { $0.append(change.isPrior ? "zoom prior" : "zoom after") }
        }
        let constituent = device.observe(\.activePrimaryConstituent, options: [.prior]) { _, change in
            log.withLock { $0.append(change.isPrior ? "constituent prior" : "constituent after") }
        }
        defer {
            zoom.invalidate()
            constituent.invalidate()
        }
        device.videoZoomFactor = 3
        #expect(device.activePrimaryConstituent?.uniqueID == "sim:back-wide")
        #expect(log.withLock { $0 } == ["zoom prior", "constituent prior", "constituent after", "zoom after"])
    }
}
