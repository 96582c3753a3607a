import Foundation
import Testing
import TestSupport
@testable import OpenCapture

/// Several threads reconfigure one running session at once while a slow delegate takes its
/// frames: start/stop, presets, camera switches, output add/remove, frame durations and
/// photos. Nothing may crash, deadlock or end the stream for good, and under
/// ThreadSanitizer (`make test-tsan`) nothing may race.
@Suite("Session stress", .serialized)
struct SessionStressTests {
    /// Operations per thread; seeded so a failure can be replayed.
    static let operations = 40

    @Test("concurrent reconfiguration ends with frames still flowing")
    func concurrentReconfiguration() throws {
        let cameras = ["sim:back-wide", "sim:front-wide"].map { AVCaptureDevice(uniqueID: $0)! }
        for camera in cameras {
            camera.simulation?.pacing = .virtual
            camera.simulation?.seed = 11
        }
        defer { for camera in cameras { camera.simulation?.pacing = .realTime } }
        let session = AVCaptureSession()
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: cameras[0]))
        let main = AVCaptureVideoDataOutput()
        let slow = StressDelegate(delay: 0.002)
        main.setSampleBufferDelegate(slow, queue: slow.queue)
        session.addOutput(main)
        let photo = AVCapturePhotoOutput()
        session.addOutput(photo)
        let extra = AVCaptureVideoDataOutput()
        let extraDelegate = StressDelegate(delay: 0)
        extra.setSampleBufferDelegate(extraDelegate, queue: extraDelegate.queue)
        let photos = StressPhotoDelegate()
        session.startRunning()

        let group = DispatchGroup()
        func worker(_ seed: UInt64, _ step: @escaping @Sendable (inout SplitMix64) -> Void) {
            group.enter()
            Thread {
                var random = SplitMix64(seed: seed)
                for _ in 0..<Self.operations { step(&random) }
                group.leave()
            }.start()
        }
        let presets: [AVCaptureSession.Preset] = [.cif352x288, .vga640x480, .low]
        worker(1) { random in
            if random.below(4) == 0 {
                // Checked: another worker may have a transaction open, where these raise.
                try? session.stopRunningChecked()
                try? session.startRunningChecked()
            } else {
                try? session.setSessionPreset(presets[random.below(presets.count)])
            }
        }
        worker(2) { random in
            if random.below(3) == 0 {
                session.beginConfiguration()
                for input in session.inputs { session.removeInput(input) }
                if let input = try? AVCaptureDeviceInput(device: cameras[random.below(cameras.count)]) {
                    try? session.addInputChecked(input)
                }
                session.commitConfiguration()
            } else if photos.taken < 3, session.isRunning {
                if (try? photo.capturePhotoChecked(with: AVCapturePhotoSettings(), delegate: photos)) != nil { photos.asked() }
            }
        }
        worker(3) { random in
            if random.below(2) == 0 {
                if session.outputs.contains(where: { $0 === extra }) {
                    session.removeOutput(extra)
                } else {
                    try? session.addOutputChecked(extra)
                }
            } else {
                let camera = cameras[random.below(cameras.count)]
                guard (try? camera.lockForConfiguration()) != nil else { return }
                let duration = CMTime(value: 1, timescale: random.below(2) == 0 ? 15 : 30)
                try? camera.setActiveVideoMinFrameDuration(duration)
                camera.unlockForConfiguration()
            }
        }
        #expect(group.wait(timeout: .now() + 300) == .success, "the workers did not finish (deadlock)")

        // The session must still work: back to one camera, running, frames arriving.
        session.beginConfiguration()
        if session.inputs.isEmpty { session.addInput(try AVCaptureDeviceInput(device: cameras[0])) }
        session.commitConfiguration()
        session.startRunning()
        let before = slow.frames
        eventually("frames kept flowing", within: .seconds(60)) { slow.frames > before + 5 }
        eventually("every photo finished", within: .seconds(120)) { photo.photosInFlight == 0 }
        session.stopRunning()
        #expect(photos.finished == photos.taken)
        // Leave the cameras to the next test: a session that keeps an input stays one of
        // the device's sessions and would answer its format and colour-space changes.
        for input in session.inputs { session.removeInput(input) }
    }
}

/// A delegate that counts frames and takes `delay` seconds over each.
private final class StressDelegate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "test.stress")
    let delay: TimeInterval
    private let count = Mutex(0)
    init(delay: TimeInterval) { self.delay = delay }
    var frames: Int { count.withLock { $0 } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        count.withLock { $0 += 1 }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
    }
}

/// Counts photos asked for and finished (with or without an error).
private final class StressPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let counts = Mutex((asked: 0, finished: 0))
    var taken: Int { counts.withLock { $0.asked } }
    var finished: Int { counts.withLock { $0.finished } }
    func asked() { counts.withLock { $0.asked += 1 } }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        counts.withLock { $0.finished += 1 }
    }
}
