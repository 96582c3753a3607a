import Dispatch
import Foundation
import Synchronization
import Testing

@testable import CaptureCore
@testable import OpenCapture
@testable import SimulatedCamera

/// Streams `count` frames (352×288, 30 fps) from a fresh ultra-wide simulated camera and
/// returns the sequence numbers of the frames flagged as a subject-area change.
private func changes(frames count: Int, onFrame: @escaping @Sendable (SimulatedCamera, FrameMetadata) -> Void = { _, _ in }) throws -> [Int64] {
    let camera = SimulatedCameraCatalog.builtInCameras()[1]
    camera.pacing = .virtual
    let sink = MetadataSink(limit: count) { onFrame(camera, $0) }
    let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
    let configuration = StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats["AVCaptureSessionPreset352x288"]!, minFrameDuration: frameDuration,
        maxFrameDuration: frameDuration, pixelFormat: .yuv420BiPlanarVideoRange)
    try camera.start(configuration, sink: sink)
    #expect(sink.wait())
    camera.stop()
    return sink.frames.filter(\.subjectAreaChanged).map(\.sequence)
}

@Suite("Subject area detector")
struct SubjectAreaDetectorTests {
    /// Sensor noise and the small moving ball never count.
    @Test func staticSceneNeverChanges() throws {
        #expect(try changes(frames: 300).isEmpty)
    }

    /// A 2 EV brightening or darkening reports once, on the frame it happens.
    @Test(arguments: [Float(800), 50])
    func lightingChangeReportsOnce(luminance: Float) throws {
        let flagged = try changes(frames: 120) { camera, m in
            if m.sequence == 40 { camera.sceneLuminanceScale = luminance }
        }
        #expect(flagged == [41])
    }

    /// Light back and forth: each change reports once, after the scene settled again.
    @Test func eachChangeReportsOnce() throws {
        let flagged = try changes(frames: 160) { camera, m in
            if m.sequence == 30 { camera.sceneLuminanceScale = 800 }
            if m.sequence == 90 { camera.sceneLuminanceScale = 200 }
        }
        #expect(flagged == [31, 91])
    }

    /// A new framing (zoom 1 → 2) is a substantial change.
    @Test func zoomChangeReports() throws {
        let flagged = try changes(frames: 80) { camera, m in
            if m.sequence == 30 { camera.zoomFactor = 2 }
        }
        #expect(flagged == [31])
    }

    /// A small brightness step (⅓ EV) is not substantial.
    @Test func smallLightingStepIsIgnored() throws {
        let flagged = try changes(frames: 80) { camera, m in
            if m.sequence == 30 { camera.sceneLuminanceScale = 250 }
        }
        #expect(flagged.isEmpty)
    }
}

@Suite("Subject area API", .serialized)
struct SubjectAreaAPITests {
    static let deviceID = "sim:back-ultrawide"

    @Test func defaultsOffAndNeedsTheLock() throws {
        let device = try #require(AVCaptureDevice(uniqueID: Self.deviceID))
        #expect(!device.isSubjectAreaChangeMonitoringEnabled)
        #expect(AVCaptureDevice.subjectAreaDidChangeNotification == .AVCaptureDeviceSubjectAreaDidChange)
        #expect(AVCaptureDevice.subjectAreaDidChangeNotification.rawValue == "AVCaptureDeviceSubjectAreaDidChangeNotification")
        #expect(throws: AVCaptureException.self) { try device.setSubjectAreaChangeMonitoringEnabled(true) }
        #expect(!device.isSubjectAreaChangeMonitoringEnabled)
        try device.lockForConfiguration()
        device.isSubjectAreaChangeMonitoringEnabled = true
        #expect(device.isSubjectAreaChangeMonitoringEnabled)
        device.isSubjectAreaChangeMonitoringEnabled = false
        device.unlockForConfiguration()
    }

    @Test func setterWithoutLockRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice(uniqueID: "sim:back-ultrawide")!.isSubjectAreaChangeMonitoringEnabled = true
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("'NSGenericException', reason: '*** -[AVCaptureDevice setSubjectAreaChangeMonitoringEnabled:]"))
    }

    @Test(arguments: [true, false])
    func lightingChangeNotifiesWhenEnabled(enabled: Bool) async throws {
        #expect(try await notifications(enabled: enabled, luminance: 800) == (enabled ? 1 : 0))
    }

    @Test func staticSceneDoesNotNotify() async throws {
        #expect(try await notifications(enabled: true, luminance: nil) == 0)
    }

    /// Streams 150 frames from the ultra-wide camera, setting the scene luminance to
    /// `luminance` at frame 50; returns how many notifications arrived for the device.
    private func notifications(enabled: Bool, luminance: Float?) async throws -> Int {
        let rig = try TestRig(uniqueID: Self.deviceID, preset: .vga640x480)
        try rig.device.lockForConfiguration()
        rig.device.isSubjectAreaChangeMonitoringEnabled = enabled
        rig.device.unlockForConfiguration()
        let seen = Mutex(0)
        let observer = NotificationCenter.default.addObserver(
            forName: AVCaptureDevice.subjectAreaDidChangeNotification, object: rig.device, queue: nil
        ) { _ in seen.withLock { $0 += 1 } }
        defer {
            NotificationCenter.default.removeObserver(observer)
            rig.device.simulation?.sceneLuminance = 200
            try? rig.device.lockForConfiguration()
            rig.device.isSubjectAreaChangeMonitoringEnabled = false
            rig.device.unlockForConfiguration()
        }
        rig.collector.delay = 0.001
        rig.session.startRunning()
        rig.collector.waitForFrames(50)
        if let luminance { rig.device.simulation?.sceneLuminance = luminance }
        rig.collector.waitForFrames(150)
        rig.stop()
        // Notifications go through the main queue; give it time to drain.
        for _ in 0..<50 { try await Task.sleep(for: .milliseconds(10)) }
        return seen.withLock { $0 }
    }
}
