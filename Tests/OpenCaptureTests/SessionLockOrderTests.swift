import Foundation
import Testing
import TestSupport
@testable import OpenCapture

/// The session never waits for user code while holding its configuration lock: a delegate
/// that configures the session while it stops (or while its output is removed) gets the
/// lock, and the stop returns once that delegate call has returned.
@Suite("Session lock order", .serialized)
struct SessionLockOrderTests {
    enum Stopper: String, CaseIterable, Sendable { case stopRunning, removeOutput }
    enum Action: String, CaseIterable, Sendable { case videoRotationAngle, activeFormat, videoSettings }

    @Test("a delegate configuring during a stop: both return", arguments: Stopper.allCases, Action.allCases)
    func delegateConfiguresDuringStop(stopper: Stopper, action: Action) throws {
        let rig = try LockOrderRig()
        defer { rig.close() }
        let delegate = rig.delegate
        delegate.onFirstFrame = { output, connection in
            // Let the stop begin (it is under way once these hold), then need the lock.
            let stopping: () -> Bool = stopper == .stopRunning ? { !rig.session.isRunning } : { output.connections.isEmpty }
            guard waitUntil(within: .seconds(10), stopping) else { return "the stop never began" }
            switch action {
            case .videoRotationAngle: connection.videoRotationAngle = 90
            case .activeFormat:
                do { try rig.device.lockForConfiguration() } catch { return "lockForConfiguration: \(error)" }
                rig.device.activeFormat = rig.device.formats.first { $0 != rig.device.activeFormat }!
                rig.device.unlockForConfiguration()
            case .videoSettings:
                (output as! AVCaptureVideoDataOutput).videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
            }
            return nil
        }
        rig.session.startRunning()
        #expect(delegate.entered.wait(timeout: .now() + 60) == .success, "no frame reached the delegate")
        let stopped = DispatchSemaphore(value: 0)
        let delegateReturnedFirst = Mutex(false)
        Thread { [rig] in
            switch stopper {
            case .stopRunning: rig.session.stopRunning()
            case .removeOutput: rig.session.removeOutput(rig.output)
            }
            delegateReturnedFirst.withLock { $0 = delegate.isDone }
            stopped.signal()
        }.start()
        #expect(stopped.wait(timeout: .now() + 20) == .success, "\(stopper) did not return (deadlock)")
        #expect(delegate.finished.wait(timeout: .now() + 20) == .success, "the delegate's \(action) did not return (deadlock)")
        #expect(delegate.failure == nil)
        // The stop waited for the delegate call in progress: it had returned by then.
        #expect(delegateReturnedFirst.withLock { $0 })
        rig.session.stopRunning()
    }

    @Test("stopRunning from inside the delegate returns, and no frame follows")
    func stopFromInsideDelegate() throws {
        let rig = try LockOrderRig()
        defer { rig.close() }
        rig.delegate.onFirstFrame = { _, _ in
            rig.session.stopRunning()
            return rig.session.isRunning ? "still running after stopRunning" : nil
        }
        rig.session.startRunning()
        #expect(rig.delegate.finished.wait(timeout: .now() + 20) == .success, "stopRunning inside the delegate did not return")
        #expect(rig.delegate.failure == nil)
        let frames = rig.delegate.frameCount
        // The delegate's queue is serial: anything already queued would run before this.
        rig.delegate.queue.sync {}
        #expect(rig.delegate.frameCount == frames)
    }

    @Test("removing one of two video outputs, 120 times, never ends the camera's stream")
    func removeAndReAddKeepsStreaming() throws {
        let rig = try LockOrderRig()
        defer { rig.close() }
        let photo = AVCapturePhotoOutput()
        rig.session.addOutput(photo)
        let second = AVCaptureVideoDataOutput()
        let secondDelegate = LockOrderDelegate()
        second.setSampleBufferDelegate(secondDelegate, queue: secondDelegate.queue)
        rig.session.addOutput(second)
        rig.session.startRunning()
        for cycle in 0..<120 {
            rig.session.removeOutput(second)
            rig.session.addOutput(second)
            let before = secondDelegate.frameCount
            guard waitUntil(within: .seconds(20), { secondDelegate.frameCount > before }) else {
                Issue.record("cycle \(cycle): the re-added output got no frame (the stream died)")
                break
            }
        }
        let kept = rig.delegate.frameCount
        eventually("the output that stayed kept getting frames") { rig.delegate.frameCount > kept }
        rig.session.stopRunning()
    }
}

/// A simulated camera in virtual time at 352x288 with one video data output.
private final class LockOrderRig: @unchecked Sendable {
    let session = AVCaptureSession()
    let output = AVCaptureVideoDataOutput()
    let delegate = LockOrderDelegate()
    let device: AVCaptureDevice

    init() throws {
        device = AVCaptureDevice(uniqueID: "sim:back-wide")!
        device.simulation?.pacing = .virtual
        device.simulation?.seed = 7
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: device))
        output.setSampleBufferDelegate(delegate, queue: delegate.queue)
        session.addOutput(output)
    }

    /// Leaves the camera to the next test: a session that keeps an input stays one of the
    /// device's sessions and answers its format and colour-space changes. (The delegate's
    /// closure holds the rig, so this cannot wait for deinit.)
    func close() {
        session.stopRunning()
        for input in session.inputs { session.removeInput(input) }
        delegate.onFirstFrame = nil
        device.simulation?.pacing = .realTime
    }
}

/// Counts frames; on the first one runs `onFirstFrame` (a failure text, or nil).
private final class LockOrderDelegate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "test.lock-order")
    let entered = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    var onFirstFrame: ((AVCaptureOutput, AVCaptureConnection) -> String?)?
    private let state = Mutex<(frames: Int, failure: String?, done: Bool)>((0, nil, false))

    var frameCount: Int { state.withLock { $0.frames } }
    var failure: String? { state.withLock { $0.failure } }
    var isDone: Bool { state.withLock { $0.done } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let first = state.withLock { state -> Bool in
            state.frames += 1
            return state.frames == 1
        }
        guard first, let onFirstFrame else { return }
        entered.signal()
        let failure = onFirstFrame(output, connection)
        state.withLock {
            $0.failure = failure
            $0.done = true
        }
        finished.signal()
    }
}
