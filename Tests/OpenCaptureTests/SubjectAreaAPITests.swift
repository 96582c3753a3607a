import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

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
        try rig.collector.waitForFrames(50)
        if let luminance { rig.device.simulation?.sceneLuminance = luminance }
        try rig.collector.waitForFrames(150)
        rig.stop()
        // Notifications go through the main queue: whatever the stream posted has arrived
        // once the queue ran what it holds now.
        await drainMainQueue()
        return seen.withLock { $0 }
    }
}
