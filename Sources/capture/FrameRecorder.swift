import Foundation
import MediaIO
import OpenCapture

/// Runs a session for `capture frames` and writes what it delivers.
final class FrameRecorder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    struct Result {
        var frames = 0
        var drops = 0
        var width = 0
        var height = 0
        var framesPerSecond = 0.0
    }

    private let plan: CapturePlan
    private let queue = DispatchQueue(label: "capture.frames")
    private let finished = DispatchSemaphore(value: 0)
    private var writer: Y4MWriter?
    private var rawWriter: Y4MMono16Writer?
    private var metadataHandle: FileHandle?
    private var result = Result()
    private var firstTime: CMTime = .invalid
    private var lastTime: CMTime = .invalid
    private var failure: Error?
    private var done = false
    private let progress = ProgressLine()

    init(plan: CapturePlan) { self.plan = plan }

    func record() throws -> Result {
        let session = AVCaptureSession()
        let output = AVCaptureVideoDataOutput()
        try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey: plan.pixelFormat])
        output.setSampleBufferDelegate(self, queue: queue)
        try SessionSetup.configure(session, plan: plan, outputs: [output])

        if let url = plan.metadata {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw UsageError("cannot create '\(url.path)'")
            }
            metadataHandle = try FileHandle(forWritingTo: url)
        }
        let observer = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil) { [weak self] note in
            let error = note.userInfo?[AVCaptureSessionErrorKey] as? NSError
            self?.finish(with: error.map { RuntimeFailure(message: $0.localizedDescription) } ?? RuntimeFailure(message: "the camera failed"))
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        try session.startRunningChecked()
        while finished.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        try session.stopRunningChecked()
        progress.finish()
        try queue.sync {
            try writer?.close()
            try rawWriter?.close()
            try metadataHandle?.close()
        }
        if let failure { throw failure }
        if result.frames > 1 {
            result.framesPerSecond = Double(result.frames - 1) / (lastTime - firstTime).seconds
        }
        return result
    }

    struct RuntimeFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
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
        do {
            if writer == nil && rawWriter == nil {
                let duration = sampleBuffer.duration
                if plan.raw {
                    rawWriter = try Y4MMono16Writer(
                        url: plan.output, width: image.width, height: image.height,
                        frameRate: (Int(duration.timescale), Int(max(duration.value, 1))))
                } else {
                    writer = try Y4MWriter(
                        url: plan.output, width: image.width, height: image.height,
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
            if let handle = metadataHandle, let metadata = sampleBuffer.metadata {
                try handle.write(contentsOf: MetadataLine.json(metadata, sampleBuffer: sampleBuffer))
            }
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
    }
}

/// One frame's metadata as a JSON object on one line.
enum MetadataLine {
    static func json(_ metadata: FrameMetadata, sampleBuffer: CMSampleBuffer) -> Data {
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
        ]
        var data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
        data.append(0x0A)
        return data
    }
}
