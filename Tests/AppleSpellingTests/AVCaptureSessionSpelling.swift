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

/// A deferred-start delegate as an app writes it (iOS 26).
final class SpellingDeferredStartDelegate: NSObject, AVCaptureSessionDeferredStartDelegate, @unchecked Sendable {
    let events = Mutex<[String]>([])
    let queueKey = DispatchSpecificKey<String>()
    func sessionWillRunDeferredStart(_ session: AVCaptureSession) {
        let onQueue = DispatchQueue.getSpecific(key: queueKey) ?? "other"
        events.withLock { $0.append("will@\(onQueue)") }
    }
    func sessionDidRunDeferredStart(_ session: AVCaptureSession) {
        let onQueue = DispatchQueue.getSpecific(key: queueKey) ?? "other"
        events.withLock { $0.append("did@\(onQueue)") }
    }
}

/// Touches AVCaptureSession.h's deferred start (iOS 26); compiled, never called.
func spellAVCaptureSessionDeferredStart(_ session: AVCaptureSession, _ layer: AVCaptureVideoPreviewLayer) {
    let manual: Bool = session.isManualDeferredStartSupported
    session.automaticallyRunsDeferredStart = false
    let automatic: Bool = session.automaticallyRunsDeferredStart
    session.runDeferredStartWhenNeeded()
    let delegate = SpellingDeferredStartDelegate()
    session.setDeferredStartDelegate(delegate, deferredStartDelegateCallbackQueue: DispatchQueue(label: "deferred"))
    let current: (any AVCaptureSessionDeferredStartDelegate)? = session.deferredStartDelegate
    let queue: DispatchQueue? = session.deferredStartDelegateCallbackQueue
    let layerSupported: Bool = layer.isDeferredStartSupported
    layer.isDeferredStartEnabled = true
    let layerDeferred: Bool = layer.isDeferredStartEnabled
    _ = (manual, automatic, current, queue, layerSupported, layerDeferred)
}

/// Counts frames delivered to one output.
private final class FrameCounter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let count = Atomic<Int>(0)
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        count.add(1, ordering: .relaxed)
    }
}

@Suite("AVCaptureSession deferred start", .serialized)
struct AVCaptureSessionDeferredStartTests {
    /// Waits (polling, bounded) until `condition` holds.
    private func waitFor(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline { usleep(500) }
    }

    private func rig() throws -> (AVCaptureSession, AVCaptureDevice, (AVCaptureVideoDataOutput, FrameCounter), (AVCaptureVideoDataOutput, FrameCounter)) {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        device.simulation?.pacing = .virtual
        let session = AVCaptureSession()
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: device))
        func output(deferred: Bool) -> (AVCaptureVideoDataOutput, FrameCounter) {
            let output = AVCaptureVideoDataOutput()
            let counter = FrameCounter()
            output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "deferred-\(deferred)"))
            output.isDeferredStartEnabled = deferred
            session.addOutput(output)
            return (output, counter)
        }
        return (session, device, output(deferred: false), output(deferred: true))
    }

    @Test("manual: a deferred output gets frames only after runDeferredStartWhenNeeded(); the delegate hears will then did on its queue")
    func manualDeferredStart() throws {
        let (session, device, first, deferred) = try rig()
        defer { device.simulation?.pacing = .realTime }
        #expect(session.isManualDeferredStartSupported && session.automaticallyRunsDeferredStart)
        session.automaticallyRunsDeferredStart = false
        let delegate = SpellingDeferredStartDelegate()
        let queue = DispatchQueue(label: "deferred-delegate")
        queue.setSpecific(key: delegate.queueKey, value: "delegate")
        session.setDeferredStartDelegate(delegate, deferredStartDelegateCallbackQueue: queue)
        #expect(session.deferredStartDelegate === delegate && session.deferredStartDelegateCallbackQueue === queue)
        session.startRunning()
        waitFor { first.1.count.load(ordering: .relaxed) >= 5 }
        #expect(first.1.count.load(ordering: .relaxed) >= 5)
        #expect(deferred.1.count.load(ordering: .relaxed) == 0)
        queue.sync {}
        #expect(delegate.events.withLock { $0 }.isEmpty)
        session.runDeferredStartWhenNeeded()
        waitFor { deferred.1.count.load(ordering: .relaxed) >= 3 && delegate.events.withLock { $0.count } == 2 }
        session.stopRunning()
        #expect(deferred.1.count.load(ordering: .relaxed) >= 3)
        #expect(delegate.events.withLock { $0 } == ["will@delegate", "did@delegate"])
    }

    @Test("automatic (the default): the deferred output starts by itself after startRunning returns, each run")
    func automaticDeferredStart() throws {
        let (session, device, first, deferred) = try rig()
        defer { device.simulation?.pacing = .realTime }
        let delegate = SpellingDeferredStartDelegate()
        let queue = DispatchQueue(label: "deferred-delegate")
        session.setDeferredStartDelegate(delegate, deferredStartDelegateCallbackQueue: queue)
        for run in 1...2 {
            let before = deferred.1.count.load(ordering: .relaxed)
            session.startRunning()
            waitFor { deferred.1.count.load(ordering: .relaxed) >= before + 3 && delegate.events.withLock { $0.count } == 2 * run }
            session.stopRunning()
            #expect(deferred.1.count.load(ordering: .relaxed) >= before + 3)
            #expect(first.1.count.load(ordering: .relaxed) > 0)
        }
        #expect(delegate.events.withLock { $0 } == ["will@other", "did@other", "will@other", "did@other"])
    }

    @Test("a delegate without a queue raises, as on iOS")
    func delegateNeedsQueue() {
        let session = AVCaptureSession()
        #expect(throws: AVCaptureException.self) { try session.setDeferredStartDelegateChecked(SpellingDeferredStartDelegate(), queue: nil) }
        session.setDeferredStartDelegate(nil, deferredStartDelegateCallbackQueue: nil)
        #expect(session.deferredStartDelegate == nil)
    }
}

/// AVCaptureConnection's frame-rate controls of iOS 5–6 (deprecated in iOS 7); compiled, never called.
@available(*, deprecated)
func spellAVCaptureConnectionDeprecatedFrameDurations(_ connection: AVCaptureConnection) {
    if connection.isVideoMinFrameDurationSupported { connection.videoMinFrameDuration = CMTime(value: 1, timescale: 15) }
    if connection.isVideoMaxFrameDurationSupported { connection.videoMaxFrameDuration = CMTime(value: 1, timescale: 15) }
    let durations: (CMTime, CMTime) = (connection.videoMinFrameDuration, connection.videoMaxFrameDuration)
    _ = durations
}

/// The app's audio session ("Configuring the app's audio session"); compiled, never called.
func spellAVCaptureSessionAudioSession(_ session: AVCaptureSession) {
    session.usesApplicationAudioSession = true
    session.automaticallyConfiguresApplicationAudioSession = false
    if #available(iOS 18.0, *) { session.configuresApplicationAudioSessionToMixWithOthers = true }
    if #available(iOS 26.0, *) { session.configuresApplicationAudioSessionForBluetoothHighQualityRecording = true }
    let values: (Bool, Bool, Bool, Bool) = (
        session.usesApplicationAudioSession, session.automaticallyConfiguresApplicationAudioSession,
        session.configuresApplicationAudioSessionToMixWithOthers, session.configuresApplicationAudioSessionForBluetoothHighQualityRecording)
    _ = values
}

private func flags(_ session: AVCaptureSession) -> [Bool] {
    let effective = session.effectiveApplicationAudioSessionConfiguration
    return [effective.configures, effective.mixesWithOthers, effective.bluetoothHighQualityRecording]
}

@Suite("AVCaptureSession audio session")
struct AVCaptureSessionAudioSessionTests {
    @Test("Apple's defaults; the configuring settings count only while the app's audio session is used")
    func defaultsAndRules() {
        let session = AVCaptureSession()
        #expect(session.usesApplicationAudioSession)
        #expect(session.automaticallyConfiguresApplicationAudioSession)
        #expect(!session.configuresApplicationAudioSessionToMixWithOthers)
        #expect(!session.configuresApplicationAudioSessionForBluetoothHighQualityRecording)
        #expect(flags(session) == [true, false, false])
        session.configuresApplicationAudioSessionToMixWithOthers = true
        session.configuresApplicationAudioSessionForBluetoothHighQualityRecording = true
        session.automaticallyConfiguresApplicationAudioSession = false
        #expect(flags(session) == [false, true, true])
        session.usesApplicationAudioSession = false
        #expect(session.configuresApplicationAudioSessionToMixWithOthers)  // kept, but without effect
        #expect(flags(session) == [false, false, false])
    }
}

/// The connection's scale-and-crop and intrinsics members; compiled, never called.
func spellAVCaptureConnectionScaleAndIntrinsics(_ connection: AVCaptureConnection) {
    let maximum: CGFloat = connection.videoMaxScaleAndCropFactor
    connection.videoScaleAndCropFactor = min(2, maximum)
    let factor: CGFloat = connection.videoScaleAndCropFactor
    if connection.isCameraIntrinsicMatrixDeliverySupported {
        connection.isCameraIntrinsicMatrixDeliveryEnabled = true
    }
    let enabled: Bool = connection.isCameraIntrinsicMatrixDeliveryEnabled
    let key: String = kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix
    _ = (factor, enabled, key)
}

/// A session test double as app test suites write one: Apple's entry points are open, so
/// these overrides compile.
final class SpellingSessionDouble: AVCaptureSession, @unchecked Sendable {
    let calls = Mutex<[String]>([])
    override func startRunning() { calls.withLock { $0.append("start") } }
    override func stopRunning() { calls.withLock { $0.append("stop") } }
    override func canAddInput(_ input: AVCaptureInput) -> Bool { super.canAddInput(input) }
    override func addInput(_ input: AVCaptureInput) { super.addInput(input) }
    override func canAddOutput(_ output: AVCaptureOutput) -> Bool { super.canAddOutput(output) }
    override func addOutput(_ output: AVCaptureOutput) { super.addOutput(output) }
    override func removeInput(_ input: AVCaptureInput) { super.removeInput(input) }
    override func removeOutput(_ output: AVCaptureOutput) { super.removeOutput(output) }
    override func beginConfiguration() { super.beginConfiguration() }
    override func commitConfiguration() { super.commitConfiguration() }
}

@Suite("AVCaptureSession overrides")
struct AVCaptureSessionOverrideSpellingTests {
    @Test("a subclass's startRunning and stopRunning replace the session's, as with Apple's open class")
    func overridesAreCalled() {
        let session = SpellingSessionDouble()
        session.startRunning()
        session.stopRunning()
        #expect(session.calls.withLock { $0 } == ["start", "stop"])
        #expect(!session.isRunning)
        #expect(session.canAddOutput(AVCaptureVideoDataOutput()))
    }
}
