import Foundation
import ImageOps
import MediaIO
import Synchronization

/// The recording engine behind `AVCaptureMovieFileOutput`.
///
/// Frames arrive on the capture thread and are handed to a serial queue that owns the
/// `MovieWriter`; at most `maximumQueuedFrames` wait, so a slow disk or encoder drops
/// frames instead of stalling capture. The delegate hears `didStartRecordingTo` with the
/// first frame written and exactly one `didFinishRecordingTo` per request.
final class MovieRecorder: @unchecked Sendable {
    struct Limits {
        var duration: CMTime
        var fileSize: Int64
        var minFreeDiskSpace: Int64
    }

    struct Settings {
        var fragmentInterval = CMTime(value: 10, timescale: 1)
        var bitRate: Int?
        /// HEVC instead of H.264.
        var hevc = false
    }

    struct Status {
        var url: URL?
        var isRecording = false
        var isPaused = false
        var duration = CMTime.zero
        var fileSize: Int64 = 0
        var queued = 0
        var droppedFrames = 0
        var framesWritten = 0
    }

    /// One request from `startRecording` to its finish callback; only the queue touches it.
    private final class Recording {
        let url: URL
        let delegate: any AVCaptureFileOutputRecordingDelegate
        let limits: Limits
        let rotation: Int
        var writer: MovieWriter?
        var firstTime: CMTime = .invalid
        var pauseOffset = CMTime.zero
        var lastTime: CMTime = .invalid
        var lastDuration = CMTime.zero
        var resumePending = false
        var finished = false

        init(url: URL, delegate: any AVCaptureFileOutputRecordingDelegate, limits: Limits, rotation: Int) {
            self.url = url
            self.delegate = delegate
            self.limits = limits
            self.rotation = rotation
        }
    }

    weak var output: AVCaptureMovieFileOutput?
    /// Signalled whenever a queued frame has been written, for virtual-time pacing.
    private let room = NSCondition()
    let settings = Mutex(Settings())
    let status = Mutex(Status())
    private let queue = DispatchQueue(label: "OpenCapture.movie")
    private var current: Recording?  // queue only
    private var mirrorPool: CVPixelBufferPool?  // queue only
    static let maximumQueuedFrames = 3

    func start(url: URL, delegate: any AVCaptureFileOutputRecordingDelegate, limits: Limits, rotation: CGFloat) {
        let box = UncheckedSendable(delegate)
        status.withLock {
            $0.isRecording = true
            $0.isPaused = false
            $0.url = url
            $0.duration = .zero
            $0.fileSize = 0
        }
        queue.async { [self] in
            let recording = Recording(url: url, delegate: box.value, limits: limits, rotation: Int(rotation))
            // Switch first, then close the previous file, so isRecording never flickers off.
            let previous = current
            current = recording
            if let previous { finish(previous, error: nil) }
            status.withLock {
                $0.isRecording = true
                $0.framesWritten = 0
                $0.droppedFrames = 0
            }
            if FileManager.default.fileExists(atPath: url.path) {
                finish(recording, error: AVError(.fileAlreadyExists, "Cannot record to \(url.path): the file already exists.", userInfo: [AVErrorRecordingSuccessfullyFinishedKey: false]))
            }
        }
    }

    func stop(error: AVError?) {
        queue.async { [self] in
            if let recording = current { finish(recording, error: error) }
        }
    }

    func setPaused(_ paused: Bool) {
        let changed = status.withLock { status -> Bool in
            guard status.isRecording, status.isPaused != paused else { return false }
            status.isPaused = paused
            return true
        }
        guard changed else { return }
        queue.async { [self] in
            guard let recording = current else { return }
            if !paused { recording.resumePending = true }
            // The delegate hears that the request took effect (iOS 18), on this queue.
            guard let output else { return }
            if paused {
                recording.delegate.fileOutput(output, didPauseRecordingTo: recording.url, from: output.connections)
            } else {
                recording.delegate.fileOutput(output, didResumeRecordingTo: recording.url, from: output.connections)
            }
        }
    }

    /// Queues a frame; `mirrored` asks for it to be flipped left to right first (the
    /// connection mirrors and the device did not).
    func consume(_ buffer: CVPixelBuffer, metadata: FrameMetadata, mirrored: Bool = false) {
        let take = status.withLock { status -> Bool in
            guard status.isRecording, !status.isPaused else { return false }
            guard status.queued < Self.maximumQueuedFrames else {
                status.droppedFrames += 1
                return false
            }
            status.queued += 1
            return true
        }
        guard take else { return }
        let frame = UncheckedSendable(buffer)
        queue.async { [self] in
            if let recording = current, !recording.finished, let image = mirrored ? mirror(frame.value) : frame.value {
                write(image, metadata: metadata, to: recording)
            }
            status.withLock { $0.queued -= 1 }
            room.lock()
            room.broadcast()
            room.unlock()
        }
    }

    /// `buffer` flipped left to right into a buffer of the recorder's own pool (queue only);
    /// nil, and the frame dropped, if the pool is exhausted.
    private func mirror(_ buffer: CVPixelBuffer) -> CVPixelBuffer? {
        if mirrorPool.map({ $0.format != buffer.format || $0.width != buffer.width || $0.height != buffer.height }) ?? true {
            mirrorPool = CVPixelBufferPool(
                format: buffer.format, width: buffer.width, height: buffer.height, minimumBufferCount: 2, maximumBufferCount: 4,
                attachments: buffer.attachmentStore.withLock { $0 })
        }
        guard let target = mirrorPool?.dequeue(), ImageTransform.transform(buffer, into: target, rotation: .none, mirrored: true) else {
            status.withLock { $0.droppedFrames += 1 }
            return nil
        }
        return target
    }

    /// Virtual time: blocks until the writer has taken every queued frame, so a recording
    /// made faster than real time loses none. Returns at once when not recording, and when
    /// `giveUp` holds (the stream is stopping: the queue may be in a delegate call).
    func waitUntilDrained(unless giveUp: () -> Bool = { false }) {
        room.lock()
        defer { room.unlock() }
        while !giveUp() && status.withLock({ $0.isRecording && $0.queued > 0 }) {
            _ = room.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
    }

    private func write(_ buffer: CVPixelBuffer, metadata: FrameMetadata, to recording: Recording) {
        let time = metadata.presentationTime
        if recording.resumePending, recording.lastTime.isValid {
            // Close the gap left by the pause so the file plays continuously.
            recording.pauseOffset = recording.pauseOffset + (time - recording.lastTime - recording.lastDuration)
            recording.resumePending = false
        }
        do throws(MovieWriterError) {
            if recording.writer == nil {
                let interval = settings.withLock { $0.fragmentInterval }
                recording.writer = try MovieWriter(
                    url: recording.url, width: buffer.width, height: buffer.height,
                    frameRate: metadata.frameDuration.isNumeric ? 1 / metadata.frameDuration.seconds : 30,
                    fragmentInterval: interval.isNumeric ? interval.seconds : 0, rotationDegrees: recording.rotation,
                    fullRange: buffer.format.isFullRange, bitRate: settings.withLock { $0.bitRate },
                    displayP3: CVBufferCopyAttachment(buffer, kCVImageBufferColorPrimariesKey, nil) as? String == kCVImageBufferColorPrimaries_P3_D65,
                    ycbcrBT601: buffer.format.isYUV
                        && CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, nil) as? String == kCVImageBufferYCbCrMatrix_ITU_R_601_4,
                    hevc: settings.withLock { $0.hevc }, tenBit: buffer.format.isTenBit,
                    hlg: CVBufferCopyAttachment(buffer, kCVImageBufferTransferFunctionKey, nil) as? String
                        == kCVImageBufferTransferFunction_ITU_R_2100_HLG)
                recording.firstTime = time
                let connections = output?.connections ?? []
                if let output { recording.delegate.fileOutput(output, didStartRecordingTo: recording.url, from: connections) }
            }
            try recording.writer!.append(buffer, presentationTime: time - recording.pauseOffset)
            recording.lastTime = time
            recording.lastDuration = metadata.frameDuration.isNumeric ? metadata.frameDuration : .zero
            let duration = recording.writer!.recordedDuration
            let size = recording.writer!.recordedFileSize
            let frames = recording.writer!.framesWritten
            status.withLock {
                $0.duration = duration
                $0.fileSize = size
                $0.framesWritten = frames
            }
            if let limitError = limitReached(recording, duration: duration, size: size) { finish(recording, error: limitError) }
        } catch {
            finish(recording, error: Self.avError(error, framesWritten: recording.writer?.framesWritten ?? 0))
        }
    }

    private func limitReached(_ recording: Recording, duration: CMTime, size: Int64) -> AVError? {
        let done: [String: any Sendable] = [AVErrorRecordingSuccessfullyFinishedKey: true]
        if recording.limits.duration.isNumeric, duration >= recording.limits.duration {
            return AVError(.maximumDurationReached, "The recording reached its maximum duration.", userInfo: done)
        }
        if recording.limits.fileSize > 0, size >= recording.limits.fileSize {
            return AVError(.maximumFileSizeReached, "The recording reached its maximum file size.", userInfo: done)
        }
        if recording.limits.minFreeDiskSpace > 0, let free = Self.freeSpace(at: recording.url), free < recording.limits.minFreeDiskSpace {
            return AVError(.diskFull, "The disk's free space fell below minFreeDiskSpaceLimit.", userInfo: done)
        }
        return nil
    }

    static func freeSpace(at url: URL) -> Int64? {
        let values = try? FileManager.default.attributesOfFileSystem(forPath: url.deletingLastPathComponent().path)
        return (values?[.systemFreeSize] as? NSNumber)?.int64Value
    }

    static func avError(_ error: MovieWriterError, framesWritten: Int) -> AVError {
        let playable: [String: any Sendable] = [AVErrorRecordingSuccessfullyFinishedKey: framesWritten > 0]
        switch error {
        case .diskFull: return AVError(.diskFull, "The disk is full.", userInfo: playable)
        case .fileExists: return AVError(.fileAlreadyExists, "The file already exists.", userInfo: [AVErrorRecordingSuccessfullyFinishedKey: false])
        default: return AVError(.unknown, "Recording failed: \(error)", userInfo: playable)
        }
    }

    /// Ends a recording once: closes the file and tells the delegate.
    private func finish(_ recording: Recording, error: AVError?) {
        guard !recording.finished else { return }
        recording.finished = true
        var failure = error
        if let writer = recording.writer {
            do throws(MovieWriterError) {
                try writer.finish()
            } catch {
                failure = failure ?? Self.avError(error, framesWritten: writer.framesWritten)
            }
            let size = writer.recordedFileSize
            let duration = writer.recordedDuration
            status.withLock {
                $0.fileSize = size
                $0.duration = duration
            }
        } else if failure == nil {
            failure = AVError(.noDataCaptured, "No frames were recorded.", userInfo: [AVErrorRecordingSuccessfullyFinishedKey: false])
        }
        if current === recording { current = nil }
        status.withLock {
            $0.isRecording = current != nil
            $0.isPaused = false
        }
        let connections = output?.connections ?? []
        if current == nil { output?.recordingSwitchingDidEnd() }
        if let output {
            recording.delegate.fileOutput(output, didFinishRecordingTo: recording.url, from: connections, error: failure)
        }
    }
}
