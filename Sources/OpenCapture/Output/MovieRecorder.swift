import Foundation
import ImageOps
import MediaIO
import Synchronization

/// The recording engine behind `AVCaptureMovieFileOutput`.
///
/// Frames arrive on the camera's capture thread and audio buffers on the microphone's; both
/// are handed to a serial queue that owns the `MovieWriter`. At most `maximumQueuedFrames`
/// frames (and `maximumQueuedAudioBuffers` audio buffers) wait, so a slow disk or encoder
/// drops media instead of stalling capture (lost audio becomes silence: the writer places
/// audio by sample count). The delegate hears `didStartRecordingTo` when the file opens (the
/// first frame; the first audio buffer for a recording without video) and exactly one
/// `didFinishRecordingTo` per request.
///
/// Audio before the first frame waits (up to a second) and is then written from the first
/// frame's time on, so both tracks start together; both keep their host-clock times
/// (the session's `synchronizationClock`) relative to that frame, so they stay in sync.
/// In virtual time the two capture threads are kept in step (`waitUntilDrained`,
/// `waitForAudioTurn`): neither runs more than `lockstepSlack` ahead of the other.
///
/// A recording with both tracks ends (`stopRecording`, a limit) at the end of its last frame:
/// no frame is written after the request, and the file is closed once the sound has reached
/// that end (the microphone runs a buffer or two behind the camera in real time, up to the
/// lockstep's slack in virtual time), so the sound track lasts as long as the picture; the
/// sound is cut there. If the sound does not come (the microphone stopped), the file closes
/// after `soundDrainTimeout` with what it has.
///
/// The status machine of each recording, the first-sample session start, the queues'
/// back-pressure and the mapping of writer errors to `AVError` are the recorder core's
/// (`RecordingCore`, Writer/Recording/); each recording is a `Recording`
/// (MovieRecorder+Recording.swift) and the feeds and lockstep are in
/// MovieRecorder+Lockstep.swift.
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
        /// AAC bits per second for the audio track, nil for 64 kbit/s per channel.
        var audioBitRate: Int?
        /// Movie-level tags (the output's `metadata`), in FFmpeg's names.
        var metadata: [(String, String)] = []
    }

    struct Status {
        var url: URL?
        var isRecording = false
        var isPaused = false
        var duration = CMTime.zero
        var fileSize: Int64 = 0
        var framesWritten = 0
        /// Frames and audio buffers waiting for the recording queue, and those dropped.
        var frames = RecordingCore.BackPressure()
        var sound = RecordingCore.BackPressure()
        var droppedFrames: Int { frames.dropped }
    }

    weak var output: AVCaptureMovieFileOutput?
    /// Signalled whenever a queued frame has been written, for virtual-time pacing.
    let room = NSCondition()
    let settings = Mutex(Settings())
    let status = Mutex(Status())
    let queue = DispatchQueue(label: "OpenCapture.movie")
    var current: Recording?  // queue only
    private var mirrorPool: CVPixelBufferPool?  // queue only
    let feeds = Mutex(Feeds())
    static let maximumQueuedFrames = 3
    /// About 0.7 s of 1024-sample buffers at 48 kHz.
    static let maximumQueuedAudioBuffers = 32
    /// How far (seconds) one capture thread may run ahead of the other in virtual time.
    static let lockstepSlack = 0.1
    /// How long an ending recording waits for its sound to reach the last frame's end.
    static let soundDrainTimeout = 1.0

    func start(
        url: URL, delegate: any AVCaptureFileOutputRecordingDelegate, limits: Limits, rotation: CGFloat, audio: MovieAudioSettings? = nil,
        hasVideo: Bool = true, metadataTracks: [(ObjectIdentifier, MovieMetadataTrackSettings)] = [],
        make: String? = nil, model: String? = nil
    ) {
        let box = UncheckedSendable(delegate)
        let appTags = settings.withLock { $0.metadata }
        let metadata = UncheckedSendable(MovieFileTags.tags(app: appTags, make: make, model: model, start: Date()))
        // KVO: recording, recordingPaused and outputFileURL change here, on the caller's thread.
        let change = watchRecording()
        status.withLock {
            $0.isRecording = true
            $0.isPaused = false
            $0.url = url
            $0.duration = .zero
            $0.fileSize = 0
        }
        change?.didChange()
        queue.async { [self] in
            let recording = Recording(
                url: url, delegate: box.value, limits: limits, rotation: Int(rotation), audio: audio, hasVideo: hasVideo,
                metadata: metadata.value, metadataTracks: metadataTracks)
            // Switch first, then close the previous file, so isRecording never flickers off.
            let previous = current
            current = recording
            if let previous { finish(previous, error: previous.endingError) }
            // A previous recording that finished meanwhile may have turned isRecording off.
            let change = watchRecording()
            status.withLock {
                $0.isRecording = true
                $0.framesWritten = 0
                $0.frames.resetDropped()
                $0.sound.resetDropped()
            }
            change?.didChange()
            if FileManager.default.fileExists(atPath: url.path) {
                finish(recording, error: AVError(.fileAlreadyExists, "Cannot record to \(url.path): the file already exists.", userInfo: [AVErrorRecordingSuccessfullyFinishedKey: false]))
            }
        }
    }

    func stop(error: AVError?) {
        queue.async { [self] in
            if let recording = current { end(recording, error: error) }
        }
    }

    /// Ends a recording (queue only): at once without sound, video, or a microphone feeding
    /// this output, while paused, or when the sound has already passed the last frame; else
    /// once the sound reaches the end of the last frame (`writeAudio`), the microphone
    /// stops feeding (`setFeed`), or `soundDrainTimeout` passes.
    func end(_ recording: Recording, error: AVError?) {
        guard !recording.finished, !recording.isEnding else { return }
        guard recording.audio != nil, recording.hasVideo, let writer = recording.writer, recording.lastTime.isValid,
            !status.withLock({ $0.isPaused }), feeds.withLock({ !$0.audio.isEmpty })
        else { return finish(recording, error: error) }
        let soundEnd = recording.lastTime + recording.lastDuration
        writer.endSession(at: soundEnd - recording.pauseOffset)
        if recording.lastAudioEnd.isValid, recording.lastAudioEnd >= soundEnd { return finish(recording, error: error) }
        recording.core.move(to: .finishing)
        recording.endingError = error
        recording.soundEnd = soundEnd
        // Only the queue touches the recording; the closure runs on it.
        let waiting = UncheckedSendable(recording)
        queue.asyncAfter(deadline: .now() + Self.soundDrainTimeout) { [self] in
            if !waiting.value.finished { finish(waiting.value, error: error) }
        }
    }

    func setPaused(_ paused: Bool) {
        // KVO: recordingPaused changes here, on the caller's thread.
        let change = watchRecording()
        let changed = status.withLock { status -> Bool in
            guard status.isRecording, status.isPaused != paused else { return false }
            status.isPaused = paused
            return true
        }
        change?.didChange()
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

    /// Counts frames the source skipped (a deck's repeated timestamps, a camera's lost
    /// frames) as dropped from the recording in progress (capture thread).
    func noteSourceDrops(_ count: Int) {
        status.withLock { status in
            guard status.isRecording, !status.isPaused else { return }
            status.frames.drop(count)
        }
    }

    /// Queues a frame; `mirrored` asks for it to be flipped left to right first (the
    /// connection mirrors and the device did not).
    func consume(_ buffer: CVPixelBuffer, metadata: FrameMetadata, mirrored: Bool = false) {
        let take = status.withLock { status -> Bool in
            guard status.isRecording, !status.isPaused else { return false }
            return status.frames.admit(limit: Self.maximumQueuedFrames)
        }
        guard take else { return }
        let frame = UncheckedSendable(buffer)
        queue.async { [self] in
            if let recording = current, !recording.finished, let image = mirrored ? mirror(frame.value) : frame.value {
                write(image, metadata: metadata, to: recording)
            }
            status.withLock { $0.frames.dequeue() }
            wakeWaiters()
        }
    }

    /// Queues an audio buffer (linear PCM from the session's microphone), called on the
    /// microphone's capture thread.
    func consumeAudio(_ sampleBuffer: CMSampleBuffer) {
        noteAudioTime(sampleBuffer)
        let take = status.withLock { status -> Bool in
            guard status.isRecording, !status.isPaused else { return false }
            return status.sound.admit(limit: Self.maximumQueuedAudioBuffers)
        }
        guard take else { return }
        let sample = UncheckedSendable(sampleBuffer)
        queue.async { [self] in
            if let recording = current, !recording.finished { writeAudio(sample.value, to: recording) }
            status.withLock { $0.sound.dequeue() }
            wakeWaiters()
        }
    }

    /// Queues a timed-metadata sample of `source`'s track (a metadata input, or the video
    /// connection for its orientation track) from `time` on the host clock; called on any
    /// thread. Nothing is kept while not recording or paused, or for a source the recording
    /// has no track of.
    func consumeMetadata(_ sample: Data, time: CMTime, source: ObjectIdentifier) {
        guard status.withLock({ $0.isRecording && !$0.isPaused }) else { return }
        queue.async { [self] in
            guard let recording = current, !recording.finished, !recording.isEnding,
                let track = recording.metadataSources.firstIndex(of: source)
            else { return }
            guard recording.writer != nil else {
                recording.pendingMetadata.append((sample, time, track))
                return
            }
            writeMetadata(sample, time: time, track: track, to: recording)
        }
    }

    /// Writes a metadata sample (queue only); one out of order is skipped, a writer failure
    /// ends the recording.
    private func writeMetadata(_ sample: Data, time: CMTime, track: Int, to recording: Recording) {
        guard let writer = recording.writer else { return }
        // Metadata from before the first frame applies from the recording's start.
        let start = recording.firstTime.isValid && time < recording.firstTime ? recording.firstTime : time
        do throws(MovieWriterError) {
            try writer.appendMetadata(sample, track: track, presentationTime: start - recording.pauseOffset)
        } catch .invalidTimestamp {
            // Not after the track's previous sample: dropped, as a late frame would be.
        } catch {
            finish(recording, error: RecordingCore.avError(error, for: .fileOutput(wroteMedia: RecordingCore.wroteMedia(writer))))
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
            status.withLock { $0.frames.drop() }
            return nil
        }
        return target
    }

    private func write(_ buffer: CVPixelBuffer, metadata: FrameMetadata, to recording: Recording) {
        // Frames after the request to end are not recorded (the sound is catching up).
        guard !recording.isEnding else { return }
        let time = metadata.presentationTime
        resumeIfNeeded(recording, at: time)
        do throws(MovieWriterError) {
            let opening = recording.writer == nil
            if opening { try open(recording, at: time, video: (buffer, metadata)) }
            try recording.writer!.append(buffer, presentationTime: time - recording.pauseOffset)
            recording.lastTime = time
            recording.lastDuration = metadata.frameDuration.isNumeric ? metadata.frameDuration : .zero
            if opening {
                // Sound heard before the first frame: the writer keeps what is at or after it.
                let early = recording.pendingAudio
                recording.pendingAudio = []
                for sample in early where !recording.finished { writeAudio(sample, to: recording) }
                flushPendingMetadata(recording)
            }
            guard !recording.finished else { return }
            afterWriting(recording)
        } catch {
            finish(recording, error: RecordingCore.avError(error, for: .fileOutput(wroteMedia: RecordingCore.wroteMedia(recording.writer))))
        }
    }

    /// Writes the metadata that waited for the file, each track's latest before the first
    /// frame from the start.
    private func flushPendingMetadata(_ recording: Recording) {
        let early = recording.pendingMetadata
        recording.pendingMetadata = []
        var kept: [(sample: Data, time: CMTime, track: Int)] = []
        for entry in early {
            // Of the groups before the start only the last one of a track still applies.
            if entry.time <= recording.firstTime, let index = kept.lastIndex(where: { $0.track == entry.track && $0.time <= recording.firstTime }) {
                kept.remove(at: index)
            }
            kept.append(entry)
        }
        for entry in kept where !recording.finished { writeMetadata(entry.sample, time: entry.time, track: entry.track, to: recording) }
    }

    /// Opens the file with the recording's tracks (video shaped like `video`'s first frame)
    /// and tells the delegate it started.
    private func open(_ recording: Recording, at time: CMTime, video: (CVPixelBuffer, FrameMetadata)?) throws(MovieWriterError) {
        try recording.open(at: time, video: video, settings: settings.withLock { $0 })
        let connections = output?.connections ?? []
        if let output { recording.delegate.fileOutput(output, didStartRecordingTo: recording.url, from: connections) }
    }

    /// The first media after a resume closes the gap the pause left, so the file plays on.
    private func resumeIfNeeded(_ recording: Recording, at time: CMTime) {
        guard recording.resumePending else { return }
        let lastEnd = recording.lastTime.isValid ? recording.lastTime + recording.lastDuration : recording.lastAudioEnd
        if lastEnd.isValid, time > lastEnd { recording.pauseOffset = recording.pauseOffset + (time - lastEnd) }
        recording.resumePending = false
    }

    /// Writes an audio buffer (queue only): held until the first frame opens the file, or
    /// opening it for a recording without video. A buffer the track cannot take (another
    /// rate or channel count) or an encoder failure ends the recording with an error.
    private func writeAudio(_ sample: CMSampleBuffer, to recording: Recording) {
        guard recording.audio != nil, sample.presentationTimeStamp.isNumeric else { return }
        let time = sample.presentationTimeStamp
        do throws(MovieWriterError) {
            if recording.writer == nil {
                guard !recording.hasVideo else {
                    recording.pendingAudio.append(sample)
                    // A second of 1024-sample buffers at 48 kHz; older sound is before any frame anyway.
                    if recording.pendingAudio.count > 48 { recording.pendingAudio.removeFirst() }
                    return
                }
                try open(recording, at: time, video: nil)
                flushPendingMetadata(recording)
            }
            if !recording.hasVideo { resumeIfNeeded(recording, at: time) }
            var shifted = sample
            if recording.pauseOffset != .zero, let data = sample.dataBuffer, let format = sample.formatDescription {
                shifted = CMSampleBuffer(
                    dataBuffer: data, formatDescription: format, sampleCount: sample.numSamples,
                    presentationTimeStamp: time - recording.pauseOffset)
            }
            try recording.writer!.appendAudio(shifted)
            if let rate = sample.formatDescription?.audioStreamBasicDescription?.mSampleRate, rate > 0 {
                recording.lastAudioEnd = time + CMTime(value: CMTimeValue(sample.numSamples), timescale: CMTimeScale(rate))
            }
            if recording.isEnding, recording.lastAudioEnd.isValid, recording.lastAudioEnd >= recording.soundEnd {
                return finish(recording, error: recording.endingError)
            }
            afterWriting(recording)
        } catch {
            finish(recording, error: RecordingCore.avError(error, for: .fileOutput(wroteMedia: RecordingCore.wroteMedia(recording.writer))))
        }
    }

    /// Publishes the writer's progress and ends the recording at a limit.
    private func afterWriting(_ recording: Recording) {
        guard let writer = recording.writer else { return }
        let duration = writer.recordedDuration
        let size = writer.recordedFileSize
        let frames = writer.framesWritten
        status.withLock {
            $0.duration = duration
            $0.fileSize = size
            $0.framesWritten = frames
        }
        // With video, the duration limit counts the picture (the sound may run a little ahead).
        let limited = recording.hasVideo ? writer.recordedVideoDuration : duration
        guard !recording.isEnding else { return }
        if let limitError = recording.limitReached(duration: limited, size: size) { end(recording, error: limitError) }
    }

    /// Watches the output's `recording`, `recordingPaused` and `outputFileURL` before
    /// `status` changes them; `didChange()` afterwards announces what differs, on the
    /// calling thread. Take and announce with no lock held; nil after one atomic load when
    /// nobody observes the output.
    private func watchRecording() -> KeyValueChange? {
        guard let output else { return nil }
        return KeyValueChange.watch(output, keys: ["recording", "recordingPaused", "outputFileURL"])
    }

    /// Ends a recording once: closes the file and tells the delegate.
    func finish(_ recording: Recording, error: AVError?) {
        guard !recording.finished else { return }
        recording.pendingAudio = []
        var failure = error
        if let writer = recording.writer {
            do throws(MovieWriterError) {
                try writer.finish()
            } catch {
                failure = failure ?? RecordingCore.avError(error, for: .fileOutput(wroteMedia: RecordingCore.wroteMedia(writer)))
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
        // Finished when the file was written and the error (a limit, the session stopping)
        // says so; else failed.
        let written = recording.writer != nil && (failure.map { $0.recordingSuccessfullyFinished == true } ?? true)
        recording.core.move(to: written ? .finished : .failed)
        if current === recording { current = nil }
        // KVO: recording (and recordingPaused) turn off here, on the recording queue, before
        // the delegate hears the recording finished.
        let change = watchRecording()
        status.withLock {
            $0.isRecording = current != nil
            $0.isPaused = false
        }
        change?.didChange()
        let connections = output?.connections ?? []
        if current == nil { output?.recordingSwitchingDidEnd() }
        if let output {
            recording.delegate.fileOutput(output, didFinishRecordingTo: recording.url, from: connections, error: failure)
        }
    }
}
