import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// A delegate whose first call waits until the test lets it go (or stops the session itself).
private final class HeldAudioDelegate: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    let entered = Completion<Void>("the first audio delegate call")
    let release = DispatchSemaphore(value: 0)
    let returned = Atomic<Bool>(false)
    private let calls = Atomic<Int>(0)
    weak var sessionToStop: AVCaptureSession?

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard calls.add(1, ordering: .relaxed).oldValue == 0 else { return }
        entered.fulfil()
        if let session = sessionToStop {
            session.stopRunning()
        } else {
            release.wait()
        }
        returned.store(true, ordering: .releasing)
    }
}

@Suite("Audio data output stop", .serialized)
struct AudioDataOutputStopTests {
    private static func session(_ delegate: HeldAudioDelegate) throws -> (AVCaptureSession, AVCaptureDevice) {
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        microphone.microphoneSimulation?.pacing = .virtual
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: microphone))
        let output = AVCaptureAudioDataOutput()
        output.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "audio delegate"))
        session.addOutput(output)
        return (session, microphone)
    }

    @Test("stopRunning returns only once the audio delegate call in progress has returned (ARCHITECTURE, Stopping)")
    func stopWaitsForDelegateCall() throws {
        let delegate = HeldAudioDelegate()
        let (session, microphone) = try Self.session(delegate)
        defer { microphone.microphoneSimulation?.pacing = .realTime }
        session.startRunning()
        try delegate.entered.wait()
        let stopped = Completion<Bool>("stopRunning")
        Thread.detachNewThread {
            session.stopRunning()
            stopped.fulfil(delegate.returned.load(ordering: .acquiring))
        }
        // The stop has begun (its job turned isRunning false) while the call is still held.
        while session.isRunning { usleep(1000) }
        delegate.release.signal()
        #expect(try stopped.wait() == true, "stopRunning returned while the delegate call was in progress")
    }

    @Test("a delegate that stops its own session from inside its call does not wait for itself")
    func delegateStopsItsOwnSession() throws {
        let delegate = HeldAudioDelegate()
        let (session, microphone) = try Self.session(delegate)
        defer { microphone.microphoneSimulation?.pacing = .realTime }
        delegate.sessionToStop = session
        session.startRunning()
        try delegate.entered.wait()
        while !delegate.returned.load(ordering: .acquiring) { usleep(1000) }
        #expect(!session.isRunning)
    }
}
