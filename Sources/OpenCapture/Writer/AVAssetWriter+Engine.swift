import Foundation
import ImageOps
import MediaIO

/// The asset writer's engine: the configuration `startWriting` opens the `MovieWriter`
/// with, and the writer's serial queue ("OpenCapture.AVAssetWriter"), which encodes what
/// the inputs queue (behind each input's `RecordingCore.BackPressure`) and fails the writer
/// on an engine error.
extension AVAssetWriter {
    /// The `MovieWriterConfiguration` of `inputs` and the writer's properties, for `startWriting`:
    /// the container from the file type, one video and/or audio track from the inputs'
    /// settings (passthrough linear PCM without settings), timed-metadata tracks, fragments
    /// and movie tags.
    func writerConfiguration(of inputs: [AVAssetWriterInput]) -> MovieWriterConfiguration {
        let (items, optimize, interval, firstFragment, timeScale) = state.withLock {
            ($0.metadata, $0.shouldOptimizeForNetworkUse, $0.movieFragmentInterval, $0.initialMovieFragmentSequenceNumber, $0.movieTimeScale)
        }
        var configuration = MovieWriterConfiguration()
        configuration.container = outputFileType == .mov ? .quickTime : outputFileType == .m4a ? .m4a : .mpeg4
        for input in inputs {
            let settings = input.outputSettings ?? [:]
            if input.mediaType == .metadata {
                let describesVideo = input.metadataReferents.contains { $0.mediaType == .video }
                configuration.metadataTracks.append(TimedMetadataCoding.track(for: input.sourceFormatHint?.metadataKeys ?? [], describesVideo: describesVideo))
            } else if input.mediaType == .video {
                configuration.video = AssetWriterSettings.video(
                    settings, hint: input.sourceFormatHint, transform: input.transform, timeScale: input.mediaTimeScale)
            } else if input.outputSettings == nil {
                // Passthrough: the hint's (else the first buffer's) linear PCM, unchanged.
                configuration.audio = AssetWriterSettings.passthroughAudio(hint: input.sourceFormatHint)
            } else {
                configuration.audio = AssetWriterSettings.audio(settings, hint: input.sourceFormatHint)
            }
        }
        configuration.fragmentInterval = interval.isNumeric && interval > .zero ? interval.seconds : 0
        configuration.firstFragmentNumber = firstFragment
        configuration.fastStart = optimize
        configuration.metadata = items.compactMap(\.movieTag)
        if timeScale > 0 { configuration.movieTimeScale = timeScale }
        return configuration
    }

    /// Queues an item of `input` for encoding (the input checked its own state).
    func enqueue(_ item: AssetWriterItem, from input: AVAssetWriterInput, selector: String, what: String, type: String) throws(AVCaptureException) -> Bool {
        let (status, started) = state.withLock { ($0.status, $0.core.isSessionStarted) }
        guard status == .writing else {
            if status == .unknown {
                throw AVCaptureException(.internalInconsistency, selectorReason(type, selector, "Cannot append \(what): status is 0 (startWriting has not been called)"))
            }
            return false
        }
        guard started else {
            throw AVCaptureException(
                .internalInconsistency,
                selectorReason(type, selector, "Cannot append \(what): Must start a session (using -[AVAssetWriter startSessionAtSourceTime:) first"))
        }
        input.didQueue()
        queue.async { [self] in
            encode(item, for: input)
            input.didEncode()
        }
        return true
    }

    /// Runs on the writer's queue.
    private func encode(_ item: AssetWriterItem, for input: AVAssetWriterInput) {
        guard let writer = state.withLock({ $0.core.phase.isOpen ? $0.writer : nil }) else { return }
        do throws(MovieWriterError) {
            switch item {
            case .video(let buffer, let time, let forceKeyFrame):
                let frame = try colorMatched(fitted(buffer, for: input, writer: writer), for: input)
                try writer.append(frame, presentationTime: time, forceKeyFrame: forceKeyFrame)
            case .audio(let sample):
                try writer.appendAudio(sample)
            case .metadata(let sample, let time):
                let track = state.withLock { $0.inputs.filter { $0.mediaType == .metadata }.firstIndex { $0 === input } } ?? 0
                try writer.appendMetadata(sample, track: track, presentationTime: time)
            }
        } catch {
            switch error {
            case .invalidTimestamp, .frameSizeMismatch:
                // A frame out of order or before the session is left out, as Apple's
                // writer trims media outside the session.
                break
            default: fail(error)
            }
        }
    }

    /// The frame at the track's size: scaled (stretched, Linux) into a scratch buffer when
    /// its size differs.
    private func fitted(_ buffer: CVPixelBuffer, for input: AVAssetWriterInput, writer: MovieWriter) -> CVPixelBuffer {
        guard buffer.width != writer.width || buffer.height != writer.height else { return buffer }
        let scratch = state.withLock { s -> CVBuffer in
            if let existing = s.scaled[input], existing.format == buffer.format { return existing }
            let made = CVBuffer(format: buffer.format, width: writer.width, height: writer.height)
            s.scaled[input] = made
            return made
        }
        return ImageTransform.scale(buffer, into: scratch) ? scratch : buffer
    }

    /// The frame in the colour the input's `AVVideoColorPropertiesKey` asks for (unchanged
    /// without one), as 4:2:0 of the layout the track's encoder takes.
    private func colorMatched(_ buffer: CVPixelBuffer, for input: AVAssetWriterInput) throws(MovieWriterError) -> CVPixelBuffer {
        guard let colour = input.outputSettings?[AVVideoColorPropertiesKey] else { return buffer }
        let matcher = state.withLock { s -> AssetWriterColorMatcher? in
            if let existing = s.colorMatchers[input] { return existing }
            guard let tags = try? AssetWriterSettings.colorTags(colour) else { return nil }
            let hevc = AssetWriterSettings.string(input.outputSettings?[AVVideoCodecKey]) == AVVideoCodecType.hevc.rawValue
            let made = AssetWriterColorMatcher(target: tags, yuvFormat: hevc ? .yuv420PlanarVideoRange : .yuv420BiPlanarVideoRange)
            s.colorMatchers[input] = made
            return made
        }
        guard let matcher else { return buffer }
        return try matcher.match(buffer)
    }

    func inputDidFinish(_ input: AVAssetWriterInput) {}

    func fail(_ error: any Error) {
        // KVO: .failed and the error are announced on the writer's queue, where writing failed.
        let changes = watchStatus()
        state.withLock { s in
            guard s.core.move(to: .failed) else { return }
            s.error = RecordingCore.avError(error, for: .assetWriter)
        }
        for change in changes { change.didChange() }
        for input in inputs { input.pump() }
    }

    /// Watches the writer's `status` and `error` and its inputs' `readyForMoreMediaData`
    /// before a status change; each `didChange()` then announces what differs. Take it and
    /// announce with no lock held. Empty, after one atomic load per object, when nobody
    /// observes.
    func watchStatus() -> [KeyValueChange] {
        let inputs = state.withLock { $0.inputs }
        return [KeyValueChange.watch(self, keys: ["status", "error"])].compactMap { $0 }
            + inputs.compactMap { KeyValueChange.watch($0, keys: ["readyForMoreMediaData"]) }
    }
}
