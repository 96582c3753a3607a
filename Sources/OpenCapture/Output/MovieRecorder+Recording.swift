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

        /// Opens the file at the first sample (`time`): tracks shaped like `video`'s first
        /// frame (size, rate, range, colour primaries, matrix, bit depth, HLG), or sound only;
        /// the session starts there (idle -> writing).
        func open(at time: CMTime, video: (CVPixelBuffer, FrameMetadata)?, settings: Settings) throws(MovieWriterError) {
            let fragmentSeconds = settings.fragmentInterval.isNumeric ? settings.fragmentInterval.seconds : 0
            if let (buffer, frame) = video {
                writer = try MovieWriter(
                    url: url, width: buffer.width, height: buffer.height,
                    frameRate: frame.frameDuration.isNumeric ? 1 / frame.frameDuration.seconds : 30,
                    fragmentInterval: fragmentSeconds, rotationDegrees: rotation,
                    fullRange: buffer.format.isFullRange, bitRate: settings.bitRate,
                    displayP3: CVBufferCopyAttachment(buffer, kCVImageBufferColorPrimariesKey, nil) as? String == kCVImageBufferColorPrimaries_P3_D65,
                    ycbcrBT601: buffer.format.isYUV
                        && CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, nil) as? String == kCVImageBufferYCbCrMatrix_ITU_R_601_4,
                    hevc: settings.hevc, tenBit: buffer.format.isTenBit,
                    hlg: CVBufferCopyAttachment(buffer, kCVImageBufferTransferFunctionKey, nil) as? String
                        == kCVImageBufferTransferFunction_ITU_R_2100_HLG,
                    audio: audio, metadata: metadata, metadataTracks: metadataTracks, metadataKeys: true)
            } else {
                var configuration = MovieWriterConfiguration(audio: audio)
                configuration.fragmentInterval = fragmentSeconds
                configuration.metadata = metadata
                configuration.quickTimeMetadataKeys = true
                configuration.metadataTracks = metadataTracks
                writer = try MovieWriter(url: url, configuration: configuration)
            }
            // The first sample starts the session: the file's time 0.
            _ = core.startSession(at: time)
            core.move(to: .writing)
        }

        /// The limit reached by a recording of `duration` and `size` (the output's maximum
        /// duration, maximum file size, or free disk space), as the error it ends with.
        func limitReached(duration: CMTime, size: Int64) -> AVError? {
            let done: [String: any Sendable] = [AVErrorRecordingSuccessfullyFinishedKey: true]
            if limits.duration.isNumeric, duration >= limits.duration {
                return AVError(.maximumDurationReached, "The recording reached its maximum duration.", userInfo: done)
            }
            if limits.fileSize > 0, size >= limits.fileSize {
                return AVError(.maximumFileSizeReached, "The recording reached its maximum file size.", userInfo: done)
            }
            if limits.minFreeDiskSpace > 0, let free = Self.freeSpace(at: url), free < limits.minFreeDiskSpace {
                return AVError(.diskFull, "The disk's free space fell below minFreeDiskSpaceLimit.", userInfo: done)
            }
            return nil
        }

        static func freeSpace(at url: URL) -> Int64? {
            let values = try? FileManager.default.attributesOfFileSystem(forPath: url.deletingLastPathComponent().path)
            return (values?[.systemFreeSize] as? NSNumber)?.int64Value
        }
    }
}
