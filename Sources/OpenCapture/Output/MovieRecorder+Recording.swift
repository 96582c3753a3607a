import Foundation
import MediaIO

extension MovieRecorder {
    /// One request from `startRecording` to its finish callback; only the recording queue
    /// touches it. Its phase is the recorder core's (`RecordingCore.Transitions.movieFileOutput`):
    /// idle until the first sample opens the file (the session starts at that sample),
    /// writing, finishing while the sound catches up with the last frame, then finished or
    /// failed.
    final class Recording {
        let url: URL
        let delegate: any AVCaptureFileOutputRecordingDelegate
        let limits: Limits
        let rotation: Int
        /// The audio track, nil for a recording without sound.
        let audio: MovieAudioSettings?
        /// Whether frames will come (the file opens with the first one).
        let hasVideo: Bool
        /// Movie-level tags: the output's `metadata` when recording started, with the
        /// device's make and model, the software and the date (`MovieFileTags`), written as
        /// QuickTime 'mdta' keys.
        let metadata: [(String, String)]
        /// The timed-metadata tracks, and the source (metadata input or connection) of each.
        let metadataTracks: [MovieMetadataTrackSettings]
        let metadataSources: [ObjectIdentifier]
        /// The status machine and the session start (the first sample's host time).
        var core = RecordingCore(.movieFileOutput)
        /// Metadata samples that came before the first frame, with their times and tracks.
        var pendingMetadata: [(sample: Data, time: CMTime, track: Int)] = []
        var writer: MovieWriter?
        /// Audio that came before the first frame.
        var pendingAudio: [CMSampleBuffer] = []
        /// The end of the last audio buffer written (host clock), for pauses without video.
        var lastAudioEnd: CMTime = .invalid
        var pauseOffset = CMTime.zero
        var lastTime: CMTime = .invalid
        var lastDuration = CMTime.zero
        var resumePending = false
        /// While finishing: the error the recording ends with, and where its sound ends (the
        /// end of the last frame, host clock).
        var endingError: AVError?
        var soundEnd = CMTime.invalid

        init(
            url: URL, delegate: any AVCaptureFileOutputRecordingDelegate, limits: Limits, rotation: Int, audio: MovieAudioSettings?,
            hasVideo: Bool, metadata: [(String, String)], metadataTracks: [(ObjectIdentifier, MovieMetadataTrackSettings)]
        ) {
            self.metadata = metadata
            self.metadataTracks = metadataTracks.map(\.1)
            metadataSources = metadataTracks.map(\.0)
            self.url = url
            self.delegate = delegate
            self.limits = limits
            self.rotation = rotation
            self.audio = audio
            self.hasVideo = hasVideo
        }

        /// The first sample's time: the file's time 0 (invalid before the file opens).
        var firstTime: CMTime { core.sessionStart }
        /// Whether the recording is over (its delegate heard, or is hearing, the finish).
        var finished: Bool { core.phase.isOver }
        /// Whether the recording is ending, its sound catching up with its last frame.
        var isEnding: Bool { core.phase == .finishing }
    }
}
