import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Takes whatever audio comes, counting it.
private final class AudioCounter: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    let count = Mutex(0)

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        count.withLock { $0 += 1 }
    }
}

/// The session's run as a state machine: a stopped session owns no device stream.
@Suite("Session runner", .serialized)
struct SessionRunnerTests {
    /// A camera at its most demanding multi-cam format, at its fastest rate; restores its format on `restore`.
    private func demanding(_ id: String, restore: inout [(AVCaptureDevice, AVCaptureDevice.Format)]) throws -> AVCaptureDevice {
        let device = try #require(AVCaptureDevice(uniqueID: id))
        func rate(_ format: AVCaptureDevice.Format) -> Double {
            Double(format.formatDescription.dimensions.width) * Double(format.formatDescription.dimensions.height)
                * (format.videoSupportedFrameRateRanges.map(\.maxFrameRate).max() ?? 0)
        }
        let format = try #require(device.formats.filter(\.isMultiCamSupported).max { rate($0) < rate($1) })
        restore.append((device, device.activeFormat))
        try device.lockForConfiguration()
        device.activeFormat = format
        device.activeVideoMinFrameDuration = try #require(format.videoSupportedFrameRateRanges.max { $0.maxFrameRate < $1.maxFrameRate }).minFrameDuration
        device.unlockForConfiguration()
        return device
    }

    @Test("cameras added to a running multi-cam session past the hardware budget stop the run, and its microphone with it")
    func overageWhileRunningFreesTheMicrophone() throws {
        var restore: [(AVCaptureDevice, AVCaptureDevice.Format)] = []
        defer {
            for (device, format) in restore {
                try? device.lockForConfiguration()
                device.activeFormat = format
                device.unlockForConfiguration()
            }
        }
        let microphone = try #require(AVCaptureDevice(uniqueID: "sim:microphone"))
        let session = AVCaptureMultiCamSession()
        session.beginConfiguration()
        func addCamera(_ id: String) throws {
            let input = try AVCaptureDeviceInput(device: try demanding(id, restore: &restore))
            session.addInputWithNoConnections(input)
            let output = AVCaptureVideoDataOutput()
            session.addOutputWithNoConnections(output)
            session.addConnection(AVCaptureConnection(inputPorts: input.ports, output: output))
        }
        try addCamera("sim:back-wide")
        let microphoneInput = try AVCaptureDeviceInput(device: microphone)
        session.addInputWithNoConnections(microphoneInput)
        let audio = AVCaptureAudioDataOutput()
        session.addOutputWithNoConnections(audio)
        session.addConnection(AVCaptureConnection(inputPorts: microphoneInput.ports, output: audio))
        session.commitConfiguration()
        try #require(session.hardwareCost <= 1, "one camera at its fastest: \(session.hardwareCost)")
        let errors = Mutex<[Int]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: AVCaptureSession.runtimeErrorNotification, object: nil, queue: nil
        ) { note in
            if let error = note.userInfo?[AVCaptureSessionErrorKey] as? NSError { errors.withLock { $0.append(error.code) } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        session.startRunning()
        #expect(session.isRunning)
        // Three more cameras at their fastest while running: over the budget.
        session.beginConfiguration()
        for id in ["sim:back-ultrawide", "sim:back-tele", "sim:front-wide"] { try addCamera(id) }
        session.commitConfiguration()
        try #require(session.hardwareCost > 1, "four cameras at their fastest: \(session.hardwareCost)")
        #expect(!session.isRunning)
        // Posted on the main queue, as Apple posts it: it may come a moment after the commit.
        eventually("the overage was reported") { !errors.withLock { $0 }.isEmpty }
        #expect(errors.withLock { $0 } == [AVError.Code.sessionHardwareCostOverage.rawValue])
        // The microphone was given back: another session streams from it.
        let other = AVCaptureSession()
        other.addInput(try AVCaptureDeviceInput(device: microphone))
        let otherAudio = AVCaptureAudioDataOutput()
        let counter = AudioCounter()
        otherAudio.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "runner test audio"))
        other.addOutput(otherAudio)
        other.startRunning()
        defer { other.stopRunning() }
        #expect(other.isRunning)
        eventually("audio reached the other session") { counter.count.withLock { $0 } > 0 }
        #expect(errors.withLock { $0 } == [AVError.Code.sessionHardwareCostOverage.rawValue])
    }

    @Test("the run moves stopped, running, stopped; a second start or stop changes nothing")
    func runStates() throws {
        let camera = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addOutput(AVCaptureVideoDataOutput())
        func state() -> SessionRun.State { session.runner.perform { $0.state }.0 }
        #expect(state() == .stopped && !session.isRunning)
        session.startRunning()
        #expect(state() == .running && session.isRunning)
        session.startRunning()
        #expect(state() == .running)
        session.stopRunning()
        #expect(state() == .stopped && !session.isRunning)
        session.stopRunning()
        #expect(state() == .stopped)
    }
}
