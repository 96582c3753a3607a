import Foundation
import OpenCapture
import Synchronization

/// The photo, movie and autofocus parts of `capture bench`: what the files cost to make,
/// and whether real time holds while autofocus moves the lens.
enum BenchOutputs {
    /// The real-time runs of the `autofocus` section: size, frame rate, focus kept searching.
    static let autofocusRuns: [(width: Int, height: Int, fps: Int, searching: Bool)] = [
        (1920, 1080, 30, true), (1280, 720, 60, true), (1280, 720, 30, true), (1280, 720, 30, false),
    ]

    /// Frames delivered and dropped over `seconds` of real time at `width`x`height` and `fps`
    /// (420v). With `searching`, continuous autofocus searches all the time: each search
    /// that ends starts another, at the other of two focus points, so the lens moves on
    /// nearly every frame (the worst case for the renderer: each move re-blurs the scene).
    /// Without, the lens is locked where it rests.
    static func autofocusRun(
        device: AVCaptureDevice, width: Int, height: Int, fps: Int, searching: Bool, seconds: Double
    ) throws -> [String: Any] {
        guard let format = device.formats.first(where: { format in
            let size = format.formatDescription.dimensions
            return Int(size.width) == width && Int(size.height) == height && !format.isVideoBinned
                && format.videoSupportedFrameRateRanges.contains { $0.minFrameRate <= Double(fps) && Double(fps) <= $0.maxFrameRate }
        }) else { throw UsageError("no \(width)x\(height) format at \(fps) fps on \(device.localizedName)") }
        device.simulation?.pacing = .realTime
        let counter = FrameCounter()
        let output = AVCaptureVideoDataOutput()
        try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "capture.bench.autofocus"))
        let session = AVCaptureSession()
        session.sessionPreset = .inputPriority
        let input = try AVCaptureDeviceInput(device: device)
        session.addInput(input)
        session.addOutput(output)
        try device.lockForConfiguration()
        device.activeFormat = format
        device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: CMTimeScale(fps))
        device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: CMTimeScale(fps))
        if !searching { device.setFocusModeLocked(lensPosition: AVCaptureDevice.currentLensPosition) }
        device.unlockForConfiguration()
        session.startRunning()
        defer {
            session.stopRunning()
            session.removeInput(input)
            session.removeOutput(output)
        }
        // The first frames rasterise the scene; real time is measured from a second in.
        Thread.sleep(forTimeInterval: 1)
        counter.state.withLock { $0.counting = true }
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(seconds * 1e9)
        var searches = 0, polls = 0, adjusting = 0
        var lastSearch: UInt64 = 0
        while DispatchTime.now().uptimeNanoseconds < end {
            let now = DispatchTime.now().uptimeNanoseconds
            let moving = device.isAdjustingFocus
            polls += 1
            if moving { adjusting += 1 }
            // A search takes a frame or two to show in the metadata: wait before the next.
            if searching && !moving && now - lastSearch > 200_000_000 {
                try device.lockForConfiguration()
                device.focusPointOfInterest = searches % 2 == 0 ? CGPoint(x: 0.35, y: 0.6) : CGPoint(x: 0.5, y: 0.5)
                device.focusMode = .continuousAutoFocus
                device.unlockForConfiguration()
                searches += 1
                lastSearch = now
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let (frames, dropped, reasons) = counter.state.withLock { state in
            state.counting = false
            return (state.frames, state.drops, state.reasons)
        }
        return [
            "size": "\(width)x\(height)", "fps": fps, "focus": searching ? "continuous, searching" : "locked",
            "seconds": seconds, "expected_frames": Int(seconds * Double(fps)), "frames": frames, "dropped": dropped,
            "dropped_by_reason": reasons,
            "searches": searches, "adjusting_share": (Double(adjusting) / Double(max(polls, 1)) * 100).rounded() / 100,
        ]
    }

    /// Counts frames and drops (by reason) while `counting`.
    final class FrameCounter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        let state = Mutex<(counting: Bool, frames: Int, drops: Int, reasons: [String: Int])>((false, 0, 0, [:]))
        func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            state.withLock { if $0.counting { $0.frames += 1 } }
        }
        func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
            let reason =
                CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil)
                as? String ?? "unknown"
            state.withLock {
                guard $0.counting else { return }
                $0.drops += 1
                $0.reasons[reason, default: 0] += 1
            }
        }
    }

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
