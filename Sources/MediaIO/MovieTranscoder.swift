import CaptureCore
import Foundation
import ImageOps

/// Re-encodes edited tracks into a new file: each segment decoded by `MovieTrackDecoder`
/// (the asset reader's engine), scaled, and encoded by `MovieWriter` (the asset writer's):
/// the export presets that change the codec or the picture size.
///
/// The first video track and the first audio track are exported (Apple's export, without
/// a video composition or audio mix, also shows only the first enabled video track).
/// Audio keeps the sources' sample rate and channel count, which every segment must share.
///
/// Not thread-safe: `transcode` runs on the caller's thread.
package enum MovieTranscoder {
    /// What the output is made of.
    package struct Output: Sendable {
        package var container: MovieContainer
        /// The largest picture (fitted inside, keeping the aspect ratio, never enlarged);
        /// nil keeps the source's size.
        package var maximumSize: (width: Int, height: Int)?
        package var hevc = false
        /// Average video bits per second; nil for constant quality.
        package var bitRate: Int?
        /// Leave the video out (an audio-only file).
        package var audioOnly = false
        /// AAC bits per second per channel.
        package var audioBitRatePerChannel = 64_000
        package var fastStart = false
        package var metadata: [(String, String)] = []
        /// Scales the decoded audio before it is encoded (an audio mix's volume): called
        /// with each block's output time, its interleaved float samples and channel count.
        package var audioGain: (@Sendable (CMTime, UnsafeMutableBufferPointer<Float>, Int) -> Void)?

        package init(container: MovieContainer) { self.container = container }
    }

    /// The picture size `output` gives a `width` x `height` source: fitted inside the
    /// maximum, never enlarged, even.
    package static func size(width: Int, height: Int, fittingIn maximum: (width: Int, height: Int)?) -> (width: Int, height: Int) {
        var scale = 1.0
        if let maximum, width > 0, height > 0 {
            scale = min(1, min(Double(maximum.width) / Double(width), Double(maximum.height) / Double(height)))
        }
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        return (even(Double(width) * scale), even(Double(height) * scale))
    }

    /// Writes the tracks to a new file at `url` (which must not exist).
    ///
    /// - Parameters:
    ///   - progress: called after each frame or audio block with the fraction written.
    ///   - isCancelled: polled between frames; true stops, deletes the file and throws `.cancelled`.
    package static func transcode(
        _ tracks: [MovieEditTrack], to url: URL, output: Output, fileLengthLimit: Int64? = nil, progress: (Double) -> Void,
        isCancelled: () -> Bool
    ) throws(MovieExportError) {
        let videoTrack = output.audioOnly ? nil : tracks.first { $0.kind == .video && !$0.media.isEmpty }
        let audioTrack = tracks.first { $0.kind == .audio && !$0.media.isEmpty }
        guard videoTrack != nil || audioTrack != nil else { throw .incompatible("no media to export") }
        try MovieEditTrack.checkUnscaledAudio(tracks)
        var configuration = MovieWriterConfiguration()
        configuration.container = output.container
        configuration.fastStart = output.fastStart
        configuration.metadata = output.metadata
        var frames: MovieSegmentFrames?
        var sound: MovieSegmentFrames?
        if let videoTrack, let first = videoTrack.media.first?.track {
            let fitted = size(width: first.width, height: first.height, fittingIn: output.maximumSize)
            var video = MovieVideoSettings(width: fitted.width, height: fitted.height, frameRate: first.frameRate > 0 ? first.frameRate : 30)
            video.fullRange = first.fullRange
            video.hevc = output.hevc
            video.bitRate = output.bitRate
            do { video.displayMatrix = try MovieWriter.displayMatrix(rotationDegrees: first.rotationDegrees) } catch { throw .writer(error) }
            configuration.video = video
            frames = MovieSegmentFrames(track: videoTrack, pixelFormat: first.fullRange ? .yuv420BiPlanarFullRange : .yuv420BiPlanarVideoRange, pcm: nil)
            frames?.scaledSize = fitted
        }
        if let audioTrack, let first = audioTrack.media.first?.track {
            for segment in audioTrack.media where segment.track?.sampleRate != first.sampleRate || segment.track?.channels != first.channels {
                throw .incompatible("audio of different sample rates or channel counts in one track")
            }
            let channels = max(first.channels, 1)
            configuration.audio = MovieAudioSettings(
                codec: .aac(bitRate: output.audioBitRatePerChannel * channels), sampleRate: first.sampleRate, channels: channels)
            sound = MovieSegmentFrames(track: audioTrack, pixelFormat: nil, pcm: MovieTrackDecoder.PCMFormat(float: true, bitsPerChannel: 32))
        }
        let writer: MovieWriter
        do { writer = try MovieWriter(url: url, configuration: configuration) } catch { throw .writer(error) }
        var finished = false
        defer {
            if !finished {
                writer.cancel()
                try? FileManager.default.removeItem(at: url)
            }
        }
        // Composition time 0 is the file's time 0.
        writer.startSession(at: .zero)
        let total = max(tracks.map { $0.end.seconds }.max() ?? 0, 0.001)
        let layout = configuration.audio.map { PCMLayout(sample: .float32, channels: $0.channels, sampleRate: Double($0.sampleRate)) }
        while true {
            if isCancelled() { throw .cancelled }
            try frames?.fill()
            try sound?.fill()
            let videoTime = frames?.pending?.time
            let audioTime = sound?.pending?.time
            let takeVideo: Bool
            switch (videoTime, audioTime) {
            case (nil, nil): takeVideo = false
            case (.some, nil): takeVideo = true
            case (nil, .some): takeVideo = false
            case (.some(let video), .some(let audio)): takeVideo = video <= audio
            }
            if videoTime == nil && audioTime == nil { break }
            if let fileLengthLimit, writer.recordedFileSize >= fileLengthLimit { break }
            do throws(MovieWriterError) {
                if takeVideo, let frames, case .video(let buffer, _, _)? = frames.pending?.sample, let time = frames.pending?.time {
                    frames.pending = nil
                    do {
                        try writer.append(frames.scaled(buffer), presentationTime: time)
                    } catch .invalidTimestamp {
                        // A frame at or before the one before (a segment's first frame shown
                        // at its start) is left out.
                    }
                    progress(min(time.seconds / total, 1))
                } else if let sound, let layout, case .audio(var data, let count, _)? = sound.pending?.sample, let time = sound.pending?.time {
                    sound.pending = nil
                    if let gain = output.audioGain {
                        data.withUnsafeMutableBytes { gain(time, $0.bindMemory(to: Float.self), layout.channels) }
                    }
                    var failure: MovieWriterError?
                    data.withUnsafeBytes { bytes in
                        do throws(MovieWriterError) {
                            try writer.appendAudio(bytes, frames: count, layout: layout, presentationTime: time)
                        } catch {
                            failure = error
                        }
                    }
                    if let failure { throw failure }
                    progress(min(time.seconds / total, 1))
                }
            } catch {
                throw .writer(error)
            }
        }
        do { try writer.finish() } catch { throw .writer(error) }
        finished = true
        progress(1)
    }
}

