// AVCaptureSession.h, spelled as iOS code spells it (the parts this file's tests need;
// other engineers extend it).
import AVFoundation
import Foundation
import Synchronization
import Testing

/// Touches the session's notifications and userInfo keys; compiled, never called.
func spellAVCaptureSession(_ session: AVCaptureSession) {
    let names: [NSNotification.Name] = [
        AVCaptureSession.runtimeErrorNotification, AVCaptureSession.didStartRunningNotification,
        AVCaptureSession.didStopRunningNotification, AVCaptureSession.wasInterruptedNotification,
        AVCaptureSession.interruptionEndedNotification,
        .AVCaptureSessionRuntimeError, .AVCaptureSessionDidStartRunning, .AVCaptureSessionDidStopRunning,
        .AVCaptureSessionWasInterrupted, .AVCaptureSessionInterruptionEnded,
    ]
    let keys: [String] = [
        AVCaptureSessionErrorKey, AVCaptureSessionInterruptionReasonKey, AVCaptureSessionInterruptionSystemPressureStateKey,
    ]
    _ = (names, keys)
    _ = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: .main) { notification in
        guard let error = notification.userInfo?[AVCaptureSessionErrorKey] as? AVError else { return }
        if error.code == .mediaServicesWereReset { session.startRunning() }
    }
}

@Suite("AVCaptureSession spelling", .serialized)
struct AVCaptureSessionSpellingTests {
    @Test("unplugging a camera posts runtimeErrorNotification whose AVCaptureSessionErrorKey casts to AVError and NSError")
    func runtimeErrorIsAnAVError() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-ultrawide"))
        device.simulation?.pacing = .virtual
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureVideoDataOutput()
        session.addOutput(output)
        let received = Mutex<(code: AVError.Code?, nsCode: Int?, device: AVCaptureDevice?)?>(nil)
        let observer = NotificationCenter.default.addObserver(
            forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil
        ) { notification in
            let error = notification.userInfo?[AVCaptureSessionErrorKey] as? AVError
            let nsError = notification.userInfo?[AVCaptureSessionErrorKey] as? NSError
            received.withLock { $0 = (error?.code, nsError?.code, error?.device) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        session.startRunning()
        device.simulation?.disconnect()
        let deadline = Date().addingTimeInterval(10)
        while received.withLock({ $0 == nil }) && Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.01))
        }
        let result = try #require(received.withLock { $0 })
        #expect(result.code == .deviceWasDisconnected)
        #expect(result.nsCode == AVError.Code.deviceWasDisconnected.rawValue)
        #expect(result.device == device)
        session.stopRunning()
        #expect(device.simulation?.reconnect() != nil)
    }
}
