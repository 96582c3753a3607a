import Foundation
import MediaIO

/// One Live Photo's movie: the frames collected for it, then the file.
///
/// `LivePhotoRecorder` fills `frames` and `stillTime` under its lock; once collection ends
/// (`recorded` is left) only the recorder's writer queue touches the movie, and the
/// results are read on the photo output's callback queue after `written` is left.
final class LivePhotoMovie: @unchecked Sendable {
    let url: URL
    let hevc: Bool
    let contentIdentifier: String
    let rotationDegrees: Int
    let autoTrims: Bool
    /// The settings' `livePhotoMovieMetadata` as QuickTime 'mdta' key and string value.
    let metadata: [(String, String)]
    /// Entered at creation; left when collection ends, and when the file is done.
    let recorded = DispatchGroup()
    let written = DispatchGroup()

    var frames: [LivePhotoRecorder.Frame] = []
    var stillTime: CMTime?
    /// The microphone's buffers for the movie and their AAC track; nil without a microphone.
    var audio: [CMSampleBuffer] = []
    var audioTrack: MovieAudioSettings?
    /// Whether a microphone fed the output when the movie began.
    var wantsSound = false
    // Results, for the delegate.
    private(set) var duration = CMTime.invalid
    private(set) var photoDisplayTime = CMTime.invalid
    private(set) var error: (any Error)?
    /// The status machine (`RecordingCore.Transitions.livePhotoMovie`): idle while frames
    /// are collected, writing on the writer queue, then finished or failed. Its moves
    /// decide that the movie ends once (a failed movie is never written, nor a written one
    /// failed) and so that `written` is left once; read under the recorder's exclusivity
    /// (`LivePhotoRecorder` either cancels a movie or writes it) or on the writer queue.
    private var core = RecordingCore(.livePhotoMovie)

    /// Luma zones change by more than this (of 255, the largest of the 4x4) between two
    /// frames: movement too large to keep, where auto trimming cuts.
    static let trimThreshold: Float = 24

    init(url: URL, hevc: Bool, contentIdentifier: String, rotationDegrees: Int, autoTrims: Bool, metadata: [(String, String)] = []) {
        self.metadata = metadata
        self.url = url
        self.hevc = hevc
        self.contentIdentifier = contentIdentifier
        self.rotationDegrees = rotationDegrees
        self.autoTrims = autoTrims
        recorded.enter()
        written.enter()
    }

    /// Whether a frame at `time` ends collection (the still is known and `postRoll` is reached).
    func isComplete(at time: CMTime) -> Bool {
        guard let stillTime else { return false }
        return CMTimeGetSeconds(CMTimeSubtract(time, stillTime)) >= LivePhotoRecorder.postRoll
    }

    /// Ends the movie without a file (its still failed).
    func fail(_ error: any Error) {
        guard core.move(to: .failed) else { return }
        self.error = error
        recorded.leave()
        written.leave()
    }

    /// The frames the movie keeps: `preRoll` before the still to `postRoll` after it, cut
    /// where the picture jumps (auto trimming).
    func selectedFrames() -> [LivePhotoRecorder.Frame] {
        guard let stillTime else { return frames }
        var kept = frames.filter {
            let offset = CMTimeGetSeconds(CMTimeSubtract($0.time, stillTime))
            return offset >= -LivePhotoRecorder.preRoll - 1e-6 && offset < LivePhotoRecorder.postRoll
        }
        guard autoTrims, kept.count > 1 else { return kept }
        let still = kept.lastIndex { CMTimeCompare($0.time, stillTime) <= 0 } ?? 0
        func jump(_ a: Int, _ b: Int) -> Bool {
            let difference = kept[a].zones - kept[b].zones
            return max(difference.max(), (-difference).max()) > Self.trimThreshold
        }
        var first = still, last = still
        while first > 0, !jump(first - 1, first) { first -= 1 }
        while last < kept.count - 1, !jump(last, last + 1) { last += 1 }
        kept = Array(kept[first...last])
        return kept
    }

    /// Encodes the movie (writer queue). The file appears at `url` only when complete: it
    /// is written under a hidden name beside it and moved into place, so a failure (a full
    /// disk, an unwritable directory) leaves nothing at `url`.
    func writeFile() {
        // Only from idle: a movie that failed has left `written` already.
        guard core.move(to: .writing) else { return }
        encode()
        // The phase is final before the delegate's queue, waiting on `written`, reads the results.
        core.move(to: error == nil ? .finished : .failed)
        written.leave()
    }

    /// Writes the selected frames (and sound) to the file, or sets `error`.
    private func encode() {
        let selected = selectedFrames()
        frames = []
        guard let first = selected.first else {
            error = AVError(.noDataCaptured, "No frames were recorded for the Live Photo movie.")
            return
        }
        if FileManager.default.fileExists(atPath: url.path) {
            error = AVError(.fileAlreadyExists, "Cannot write the Live Photo movie to \(url.path): the file already exists.")
            return
        }
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        var writer: MovieWriter?
        do throws(MovieWriterError) {
            var video = MovieVideoSettings(width: first.buffer.width, height: first.buffer.height, frameRate: LivePhotoRecorder.maximumFrameRate)
            video.fullRange = first.buffer.format == .yuv420BiPlanarFullRange
            video.hevc = hevc
            video.displayMatrix = try MovieWriter.displayMatrix(rotationDegrees: rotationDegrees)
            // Sound only with a track and buffers; the writer cuts what lies outside the frames.
            let sound = audioTrack != nil && !audio.isEmpty
            var configuration = MovieWriterConfiguration(video: video, audio: sound ? audioTrack : nil)
            configuration.container = .quickTime
            configuration.metadata = [("com.apple.quicktime.content.identifier", contentIdentifier)] + metadata
            configuration.quickTimeMetadataKeys = true
            // Where the still sits: the timed-metadata track Photos pairs the movie by, as an
            // iPhone's Live Photo movie carries it (only when the still's time is known).
            let stillSample = stillTime.flatMap(Self.stillImageTimeSample(at:))
            if stillSample != nil { configuration.metadataTracks = [Self.stillImageTimeTrack] }
            let movie = try MovieWriter(url: partial, configuration: configuration)
            writer = movie
            // The first frame starts the session: the movie's time 0.
            _ = core.startSession(at: first.time)
            let start = core.sessionStart
            if stillSample != nil { movie.startSession(at: start) }
            if sound, let last = selected.last {
                movie.startSession(at: start)
                movie.endSession(at: last.time + CMTime(seconds: 1 / LivePhotoRecorder.maximumFrameRate, preferredTimescale: 90_000))
                try Self.interleave(selected, audio, into: movie)
            } else {
                for frame in selected { try movie.append(frame.buffer, presentationTime: frame.time) }
            }
            if let stillSample {
                // One sample from the still's frame for a frame's time, then none.
                try movie.appendMetadata(stillSample.sample, track: 0, presentationTime: stillSample.start)
                try movie.appendMetadata(Data(), track: 0, presentationTime: stillSample.end)
            }
            try movie.finish()
            duration = movie.recordedDuration
        } catch {
            writer?.cancel()
            try? FileManager.default.removeItem(at: partial)
            self.error = RecordingCore.avError(error, for: .fileOutput(wroteMedia: false))
            return
        }
        do {
            try FileManager.default.moveItem(at: partial, to: url)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            self.error = AVError(.unknown, "The Live Photo movie could not be put at \(url.path): \(error.localizedDescription)")
            duration = .invalid
            return
        }
        if let stillTime { photoDisplayTime = CMTimeConvertScale(CMTimeSubtract(stillTime, core.sessionStart), timescale: 90_000, method: .roundHalfAwayFromZero) }
    }

    /// The key of the still-image-time track: `mdta/com.apple.quicktime.still-image-time`, a
    /// signed 8-bit integer.
    static let stillImageTimeKey = CMMetadataKeyEntry(
        identifier: "mdta/com.apple.quicktime.still-image-time", dataType: kCMMetadataBaseDataType_SInt8)

    /// The boxed timed-metadata track of the still's time, associated with the video ('cdsc').
    static var stillImageTimeTrack: MovieMetadataTrackSettings {
        TimedMetadataCoding.track(for: [stillImageTimeKey], describesVideo: true)
    }

    /// The still-image-time sample (the value -1, as iPhones write it) and the frame-long
    /// range it covers from `time`.
    static func stillImageTimeSample(at time: CMTime) -> (sample: Data, start: CMTime, end: CMTime)? {
        guard time.isNumeric else { return nil }
        let frame = CMTime(seconds: 1 / LivePhotoRecorder.maximumFrameRate, preferredTimescale: 90_000)
        return (MovieMetadataTrackSettings.sample([(1, Data([0xFF]))]), time, CMTimeAdd(time, frame))
    }

    /// Appends frames and sound in time order, as the muxer interleaves them. A buffer the
    /// writer refuses (another format) is skipped: the track keeps a gap of silence.
    private static func interleave(_ frames: [LivePhotoRecorder.Frame], _ audio: [CMSampleBuffer], into movie: MovieWriter) throws(MovieWriterError) {
        var next = 0
        for frame in frames {
            while next < audio.count, CMTimeCompare(audio[next].presentationTimeStamp, frame.time) <= 0 {
                try appendSound(audio[next], to: movie)
                next += 1
            }
            try movie.append(frame.buffer, presentationTime: frame.time)
        }
        while next < audio.count {
            try appendSound(audio[next], to: movie)
            next += 1
        }
    }

    private static func appendSound(_ buffer: CMSampleBuffer, to movie: MovieWriter) throws(MovieWriterError) {
        do {
            try movie.appendAudio(buffer)
        } catch .invalidSettings, .invalidTimestamp {
            // Skipped, the writer goes on.
        }
    }
}
