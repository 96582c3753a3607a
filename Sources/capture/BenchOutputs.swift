import Foundation
import OpenCapture

/// The photo and movie parts of `capture bench`: what the files cost to make.
enum BenchOutputs {
    /// Records `frames` frames of 1920x1080 in virtual time and returns frames per second
    /// through the whole pipeline: render, route, H.264 encode, fragmented MP4 write.
    static func movieFramesPerSecond(device: AVCaptureDevice, frames: Int) throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = AVCaptureMovieFileOutput()
        output.maxRecordedDuration = CMTime(value: CMTimeValue(frames), timescale: 30)
        return try withRunningSession(device: device, preset: .hd1920x1080, output: output) {
            let delegate = FinishWaiter()
            let start = DispatchTime.now().uptimeNanoseconds
            output.startRecording(to: folder.appendingPathComponent("bench.mp4"), recordingDelegate: delegate)
            delegate.done.wait()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return Double(output.recordedFrameCount) / seconds
        }
    }

    /// Takes `count` JPEG photos at 4032x3024 and returns the median milliseconds from
    /// `capturePhoto` to the finished JPEG.
    static func photoMilliseconds(device: AVCaptureDevice, count: Int) throws -> Double {
        let output = AVCapturePhotoOutput()
        return try withRunningSession(device: device, preset: .photo, output: output) {
            var times: [Double] = []
            for _ in 0..<count {
                let waiter = PhotoWaiter()
                let start = DispatchTime.now().uptimeNanoseconds
                output.capturePhoto(with: AVCapturePhotoSettings(), delegate: waiter)
                waiter.done.wait()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            return (times.sorted()[times.count / 2] * 10).rounded() / 10
        }
    }

    /// Runs `body` with a session on virtual time feeding `output`, then takes it apart.
    private static func withRunningSession<Result>(
        device: AVCaptureDevice, preset: AVCaptureSession.Preset, output: AVCaptureOutput, body: () throws -> Result
    ) throws -> Result {
        device.simulation?.pacing = .virtual
        defer { device.simulation?.pacing = .realTime }
        let session = AVCaptureSession()
        session.sessionPreset = preset
        let input = try AVCaptureDeviceInput(device: device)
        session.addInput(input)
        session.addOutput(output)
        session.startRunning()
        defer {
            session.stopRunning()
            session.removeInput(input)
            session.removeOutput(output)
        }
        return try body()
    }

    final class FinishWaiter: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?) {
            done.signal()
        }
    }

    final class PhotoWaiter: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
            done.signal()
        }
    }
}
