import Foundation
import MediaIO
import OpenCapture
import Synchronization

/// Runs a session for `capture frames` and writes what it delivers. When a write fails
/// (a full disk, a closed pipe) it stops, and the files it made keep the complete frames
/// and their metadata lines: the partial frame is cut off (see `finishAfterFailure`).
final class FrameRecorder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
    struct Result {
        var frames = 0
        var drops = 0
        var width = 0
        var height = 0
        var framesPerSecond = 0.0
        /// The signal that ended the run early ("SIGINT"), if one did.
        var stoppedBy: String?
        /// The drops by their reason (`kCMSampleBufferAttachmentKey_DroppedFrameReason`).
        var dropReasons: [String: Int] = [:]

        /// "0 dropped", or "30 dropped: 30 skipped by the source" with each reason's count.
        var dropSummary: String {
            guard drops > 0 else { return "0 dropped" }
            let words = [
                kCMSampleBufferDroppedFrameReason_FrameWasLate: "late",
                kCMSampleBufferDroppedFrameReason_OutOfBuffers: "out of buffers",
                kCMSampleBufferDroppedFrameReason_Discontinuity: "skipped by the source",
            ]
            let reasons = dropReasons.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .map { "\($0.value) \(words[$0.key] ?? $0.key)" }
            return "\(drops) dropped: " + reasons.joined(separator: ", ")
        }
    }

    private let plan: CapturePlan
    private let video: OutputFile
    private let metadata: OutputFile?
    /// The sizes of both outputs after the last frame written in full to both.
    private var completeSizes: (video: Int64, metadata: Int64) = (0, 0)
    private let queue = DispatchQueue(label: "capture.frames")
    private let finished = DispatchSemaphore(value: 0)
    private var writer: Y4MWriter?
    private var rawWriter: Y4MMono16Writer?
    private var result = Result()
    private var firstTime: CMTime = .invalid
    private var lastTime: CMTime = .invalid
    private var failure: Error?
    private var done = false
    /// The codes of the newest frame the metadata output has read (with `--metadata`), each
    /// with its own frame's time: detection runs beside the video and may lag it by a frame.
    private var latestObjects: [[String: Any]] = []
    private let progress = ProgressLine()
    /// When a frame last reached the delegate (uptime nanoseconds), and whether the delegate
    /// is busy now (writing to a slow pipe is not a stalled camera).
    private let lastFrame = Atomic<UInt64>(0)
    private let inDelegate = Atomic<Bool>(false)

    /// How long the camera may deliver nothing before the run is given up.
    static let stallLimit: UInt64 = 10_000_000_000

    /// What the metadata output looks for (with `--metadata`).
    private let objectTypes: [AVMetadataObject.ObjectType]

    init(plan: CapturePlan, video: OutputFile, metadata: OutputFile?, objectTypes: [AVMetadataObject.ObjectType] = []) {
        self.plan = plan
        self.video = video
        self.metadata = metadata
        self.objectTypes = objectTypes
    }

    func record() throws -> Result {
        let session = AVCaptureSession()
        let output = AVCaptureVideoDataOutput()
        try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey: plan.pixelFormat])
        output.setSampleBufferDelegate(self, queue: queue)
        // With --metadata, each line also lists the objects detected (--types; none: no scanner).
        let scanner = metadata == nil || objectTypes.isEmpty ? nil : AVCaptureMetadataOutput()
        try SessionSetup.configure(session, plan: plan, outputs: [output] + (scanner.map { [$0] } ?? []))
        if let scanner {
            scanner.setMetadataObjectsDelegate(self, queue: queue)
            let available = Set(scanner.availableMetadataObjectTypes)
            if objectTypes.contains(.face) && !available.contains(.face) {
                throw CommandFailure(message: "--types face: face detection is not installed here (the face detector plugin and opencv-data)")
            }
            try scanner.setMetadataObjectTypes(objectTypes.filter(available.contains))
        }
        let observer = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil) { [weak self] note in
            let error = note.userInfo?[AVCaptureSessionErrorKey] as? NSError
            self?.finish(with: error.map { CommandFailure(message: $0.localizedDescription) } ?? CommandFailure(message: "the camera failed"))
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        // Ctrl-C or SIGTERM ends the run early and keeps the frames written so far, as if
        // --count had been reached (the default action would leave the staging file behind).
        let signals = SignalWatcher(queue: .global()) { [weak self] number in self?.stop(by: SignalWatcher.name(number)) }
        defer { signals.cancel() }
        lastFrame.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        try session.startRunningChecked()
        while finished.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.01))
            let idle = DispatchTime.now().uptimeNanoseconds - lastFrame.load(ordering: .relaxed)
            if plan.device.deck != nil && plan.device.transportControlsPlaybackMode == .notPlaying && idle > 100_000_000 {
                // A file deck stopped at the end of its file (the last frame has had time to arrive).
                stop(by: "the end of the file")
            } else if !inDelegate.load(ordering: .relaxed) && idle > Self.stallLimit {
                // A camera that stops delivering must not leave the tool waiting for ever.
                finish(with: CommandFailure(message: "\(plan.device.localizedName) delivered no frames for \(Self.stallLimit / 1_000_000_000) s"))
            }
        }
        try session.stopRunningChecked()
        progress.finish()
        if let failure = queue.sync(execute: { failure }) { throw finishAfterFailure(failure) }
        try video.commit()
        try metadata?.commit()
        if result.frames > 1 {
            result.framesPerSecond = Double(result.frames - 1) / (lastTime - firstTime).seconds
        }
        return result
    }

    /// Keeps the complete frames of the files this run made (cutting the partial one off
    /// and putting them in place), or removes the files when no frame is complete; returns
    /// the error to report, which says what was kept.
    private func finishAfterFailure(_ failure: any Error) -> any Error {
        let frames = result.frames
        guard video.target.isCreatedByUs else {
            metadata?.discard()
            return CommandFailure(message: "\(ErrorText.line(failure)) (after \(Plural.count(frames, "complete frame")))")
        }
        var kept = frames > 0 && video.truncate(to: completeSizes.video)
        if let metadata, kept, metadata.target.isCreatedByUs { kept = metadata.truncate(to: completeSizes.metadata) }
        if kept {
            do {
                try video.commit()
                try metadata?.commit()
            } catch {
                kept = false
            }
        }
        guard kept else {
            video.discard()
            metadata?.discard()
            return CommandFailure(message: "\(ErrorText.line(failure)) (nothing kept)")
        }
        return CommandFailure(message: "\(ErrorText.line(failure)) (kept \(Plural.count(frames, "complete frame")))")
    }

    /// Ends the run at once, keeping every complete frame.
    private func stop(by signalName: String) {
        queue.async { [self] in
            guard !done else { return }
            done = true
            result.stoppedBy = signalName
            finished.signal()
        }
    }

    private func finish(with error: Error?) {
        queue.async { [self] in
            guard !done else { return }
            done = true
            failure = failure ?? error
            finished.signal()
        }
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard !done, let image = sampleBuffer.imageBuffer else { return }
        inDelegate.store(true, ordering: .relaxed)
        defer {
            lastFrame.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            inDelegate.store(false, ordering: .relaxed)
        }
        do {
            if writer == nil && rawWriter == nil {
                let duration = sampleBuffer.duration
                let sink: Y4MWriter.Sink = { [video] in try video.write($0) }
                if plan.raw {
                    rawWriter = try Y4MMono16Writer(
                        sink: sink, width: image.width, height: image.height,
                        frameRate: (Int(duration.timescale), Int(max(duration.value, 1))))
                } else {
                    writer = try Y4MWriter(
                        sink: sink, width: image.width, height: image.height,
                        frameRate: (Int(duration.timescale), Int(max(duration.value, 1))),
                        fullRange: PixelFormat(rawValue: plan.pixelFormat)?.isFullRange ?? false)
                }
                result.width = image.width
                result.height = image.height
                firstTime = sampleBuffer.presentationTimeStamp
            }
            if let rawWriter {
                try RawCapture.mosaic(of: image).withSamples { try rawWriter.append($0) }
            } else {
                try writer!.append(image)
            }
            lastTime = sampleBuffer.presentationTimeStamp
            if let handle = metadata, let frameMetadata = sampleBuffer.metadata {
                try handle.write(MetadataLine.json(frameMetadata, sampleBuffer: sampleBuffer, objects: latestObjects))
            }
            completeSizes = (video.size, metadata?.size ?? 0)
            result.frames += 1
            progress.update(frames: result.frames, of: plan.count, drops: result.drops, bytes: writer?.bytesWritten ?? rawWriter?.bytesWritten ?? 0)
            if result.frames >= plan.count {
                done = true
                finished.signal()
            }
        } catch {
            failure = error
            done = true
            finished.signal()
        }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        result.drops += 1
        let reason = CMGetAttachment(sampleBuffer, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil) as? String
        result.dropReasons[reason ?? "unknown reason", default: 0] += 1
    }

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
        latestObjects = metadataObjects.map(CodeTypes.fields)
    }
}

/// One frame's metadata as a JSON object on one line.
enum MetadataLine {
    /// `objects`: the codes detected most recently (`CodeTypes.fields`), under "objects".
    static func json(_ metadata: FrameMetadata, sampleBuffer: CMSampleBuffer, objects: [[String: Any]] = []) -> Data {
        let gains = metadata.whiteBalanceGains
        let fields: [String: Any] = [
            "sequence": metadata.sequence,
            "presentation_time": sampleBuffer.presentationTimeStamp.seconds,
            "duration": sampleBuffer.duration.seconds,
            "exposure_duration": metadata.exposureDuration,
            "iso": Double(metadata.iso),
            "exposure_target_offset": Double(metadata.exposureTargetOffset),
            "lens_aperture": Double(metadata.lensAperture),
            "lens_position": Double(metadata.lensPosition),
            "zoom_factor": metadata.zoomFactor,
            "focus_mode": ["locked", "auto", "continuous"][metadata.focusState.rawValue], "adjusting_focus": metadata.isAdjustingFocus,
            "torch_level": Double(metadata.torchLevel),
            "white_balance_gains": [Double(gains.red), Double(gains.green), Double(gains.blue)],
            "mean_luma": Double(metadata.meanLuma),
            "exposure_mode": ["locked", "auto", "continuous", "custom"][metadata.exposureState.rawValue],
            "exposure_target_bias": Double(metadata.exposureTargetBias),
            "adjusting_exposure": metadata.isAdjustingExposure,
            "low_light_boost": metadata.isLowLightBoostEnabled,
            "white_balance_mode": ["locked", "auto", "continuous"][metadata.whiteBalanceState.rawValue],
            "adjusting_white_balance": metadata.isAdjustingWhiteBalance,
            "gray_world_gains": [Double(metadata.grayWorldGains.red), Double(metadata.grayWorldGains.green), Double(metadata.grayWorldGains.blue)],
            "scene_temperature": metadata.sceneTemperature,
            "scene_tint": metadata.sceneTint,
            "black_level": Double(metadata.blackLevel),
            "analog_gain": Double(metadata.analogGain),
            "video_hdr": metadata.isVideoHDREnabled,
            "color_space": ["srgb", "p3"][min(max(metadata.colorSpace, 0), 1)],
            "width": sampleBuffer.imageBuffer?.width ?? 0,
            "height": sampleBuffer.imageBuffer?.height ?? 0,
            "objects": objects,
        ]
        var data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
        data.append(0x0A)
        return data
    }
}
