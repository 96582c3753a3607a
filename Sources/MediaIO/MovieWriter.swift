import CFFmpeg
import CaptureCore
import Foundation

/// Records pixel buffers to an H.264 or HEVC track and linear PCM to an AAC or PCM track of
/// an MP4, QuickTime or M4A file: the engine of `AVCaptureMovieFileOutput` and `AVAssetWriter`.
///
/// Encoding is libx264 through libavcodec: preset 'veryfast', High profile without
/// B-frames, NV12 input, BT.709 colour tagged with the range asked for, and either an
/// average bit rate or constant quality (CRF 23) under a ceiling (see `MovieEncoder`).
/// Muxing is libavformat's mp4 muxer (see `MovieMuxer`).
///
/// **Crash safety.** With a positive `fragmentInterval` the file is a fragmented MP4. At
/// every multiple of `fragmentInterval` seconds of media a keyframe is forced, and when its
/// packet leaves the encoder the fragment before it is written and handed to the kernel. A
/// process killed at any moment (even by SIGKILL) leaves a file that plays up to its last
/// complete fragment; what the encoder and the current fragment held is lost: at most one
/// interval plus the encoder's delay (14 frames on two cores: look-ahead and frame threads).
/// `finish` writes the rest and an `mfra` index. Unfragmented files play only once finished.
///
/// **Time.** Presentation times are made relative to the origin, which is time 0: the time
/// given to `startSession(at:)`, else the first frame's (or first audio sample's). Video is
/// stored at 1/90000 s, audio at 1 / sample rate. Each frame lasts until the next frame's
/// time; the last frame lasts one nominal frame (`1 / frameRate`), or until `endSession`'s
/// time. Audio is placed by sample count: a gap in its times is filled with silence and an
/// overlap (or samples before the origin) is cut, so the tracks stay in sync to a sample.
///
/// **Rotation** is metadata: the track's display matrix tells players to turn the picture
/// `rotationDegrees` clockwise; the pixels are stored as captured. FFmpeg reads the matrix
/// back as a counterclockwise angle: ffprobe shows `rotation: -90` for 90 degrees clockwise.
///
/// **Speed**, 1920x1080 NV12, release build, two cores shared with other work: 85-110
/// frames/s (9-12 ms of CPU a frame) for camera-like pictures; 35 frames/s (29 ms) for a
/// picture of strong fresh noise in every frame at the bit-rate ceiling.
///
/// Not thread-safe: call it from one thread at a time (the movie output uses one serial
/// queue). It is `Sendable` only so that it can be handed to that queue.
package final class MovieWriter: @unchecked Sendable {
    /// Units per second of the video times stored in the file.
    static let timescale: Int32 = 90_000

    private enum State {
        case writing
        case finished
        case failed(MovieWriterError)
    }

    package let url: URL
    /// The video size (0 without a video track).
    package let width: Int
    package let height: Int
    package let configuration: MovieWriterConfiguration
    private let encoder: MovieEncoder?
    private let audioEncoder: MovieAudioEncoder?
    private let muxer: MovieMuxer
    private let videoTrack: Int
    private let audioTrack: Int
    /// The stream of each timed-metadata track, and the sample each holds until the next
    /// one gives its duration (time in `timescale` units from the origin).
    private let metadataStreams: [Int]
    private var pendingMetadata: [(sample: Data, time: Int64)?]
    private var plan: MovieFragmentPlan
    private var durations: MovieFrameDurations
    private var state = State.writing
    /// Time 0 of the movie: `startSession`'s time or the first sample's.
    private var origin: CMTime?
    /// The end given to `endSession(at:)`; later media is not written.
    private var end: CMTime?
    /// The last frame's time in `timescale` units, -1 before the first frame.
    private var lastTime: Int64 = -1
    /// The next audio sample's time in samples from the origin.
    private var nextAudioSample: Int64 = 0
    /// Audio-only fragments: the sample time at which the next fragment starts.
    private var nextAudioFragment: Int64 = 0

    /// Frames accepted by `append`. The last few may still be in the encoder, and those of
    /// the current fragment in memory, until the fragment is cut or the writer finishes.
    package private(set) var framesWritten = 0
    /// The audio track's end in samples (per channel) from the origin: what `appendAudio`
    /// accepted, silence for gaps included (in a fragmented file the first 1024 samples of
    /// AAC are its priming).
    package var audioSamplesWritten: Int64 { nextAudioSample }

    /// Creates an H.264 (or HEVC) MP4 file of one video track, which must not exist, and
    /// writes its header: the movie output's writer.
    ///
    /// - Parameters:
    ///   - width: frame width in pixels; even, as 4:2:0 H.264 requires.
    ///   - height: frame height in pixels; even.
    ///   - frameRate: nominal frames per second, for rate control and the last frame's duration.
    ///   - fragmentInterval: seconds of media per fragment; 0 or less writes an unfragmented
    ///     file that is playable only after `finish`.
    ///   - rotationDegrees: clockwise rotation players apply: 0, 90, 180 or 270 (or those
    ///     plus a multiple of 360).
    ///   - fullRange: store full-range (0-255) samples instead of video range (16-235).
    ///   - bitRate: average bits per second, or `nil` for constant quality.
    ///   - displayP3: tag the stream with Display P3 primaries (the frames are P3_D65).
    ///   - ycbcrBT601: the frames are Y'CbCr made with the BT.601 matrix (a V4L2 camera's);
    ///     the stream says so instead of BT.709.
    ///   - hevc: encode HEVC (libx265, tagged 'hvc1') instead of H.264.
    ///   - tenBit: with `hevc`, encode HEVC Main 10 from 10-bit samples ('x420'/'xf20'
    ///     buffers keep all their bits); H.264 stays 8-bit (10-bit frames are narrowed).
    ///   - hlg: tag the stream BT.2100 HLG: BT.2020 primaries and matrix, ARIB STD-B67
    ///     transfer (the frames are HLG_BT2020).
    ///   - audio: an audio track beside the video (the movie output with a microphone).
    ///   - metadata: movie-level tags in FFmpeg's names (see `MovieWriterConfiguration.metadata`).
    ///   - metadataTracks: timed-metadata tracks (see `appendMetadata`).
    ///   - metadataKeys: write `metadata` as QuickTime 'mdta' keys (see
    ///     `MovieWriterConfiguration.quickTimeMetadataKeys`).
    package convenience init(
        url: URL, width: Int, height: Int, frameRate: Double, fragmentInterval: Double = 10,
        rotationDegrees: Int = 0, fullRange: Bool = false, bitRate: Int? = nil, displayP3: Bool = false, ycbcrBT601: Bool = false,
        hevc: Bool = false, tenBit: Bool = false, hlg: Bool = false, audio: MovieAudioSettings? = nil,
        metadata: [(String, String)] = [], metadataTracks: [MovieMetadataTrackSettings] = [], metadataKeys: Bool = false
    ) throws(MovieWriterError) {
        let rotation = (rotationDegrees % 360 + 360) % 360
        guard rotation % 90 == 0 else { throw .invalidSettings("rotation \(rotationDegrees) is not a multiple of 90") }
        var video = MovieVideoSettings(width: width, height: height, frameRate: frameRate)
        video.fullRange = fullRange
        video.bitRate = bitRate
        video.displayP3 = displayP3
        video.ycbcrBT601 = ycbcrBT601
        video.hevc = hevc
        video.tenBit = tenBit
        video.hlg = hlg
        if rotation != 0 {
            try FFmpegLibraries.load()
            video.displayMatrix = MovieMuxer.rotationMatrix(degrees: rotation)
        }
        var configuration = MovieWriterConfiguration(video: video, audio: audio)
        configuration.fragmentInterval = fragmentInterval
        configuration.metadata = metadata
        configuration.metadataTracks = metadataTracks
        configuration.quickTimeMetadataKeys = metadataKeys
        try self.init(url: url, configuration: configuration)
    }

    /// Creates the file (which must not exist) with the configured tracks and writes its header.
    package init(url: URL, configuration: MovieWriterConfiguration) throws(MovieWriterError) {
        try FFmpegLibraries.load()
        let fragmentInterval = configuration.fragmentInterval
        guard fragmentInterval.isFinite else { throw .invalidSettings("fragment interval \(fragmentInterval)") }
        guard configuration.video != nil || configuration.audio != nil else { throw .invalidSettings("a movie needs a track") }
        let intervalTicks = fragmentInterval > 0 ? max(Int64((fragmentInterval * Double(Self.timescale)).rounded()), 1) : 0
        var frameTicks = Int64(Self.timescale / 30)
        var encoder: MovieEncoder?
        if let video = configuration.video {
            let (width, height, frameRate) = (video.width, video.height, video.frameRate)
            guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
                throw .invalidSettings("\(width)x\(height): 4:2:0 H.264 needs even, positive dimensions")
            }
            guard frameRate.isFinite, frameRate > 0 else { throw .invalidSettings("frame rate \(frameRate)") }
            if let bitRate = video.bitRate, bitRate <= 0 { throw .invalidSettings("bit rate \(bitRate)") }
            frameTicks = max(Int64((Double(Self.timescale) / frameRate).rounded()), 1)
            // Our forced keyframes come every interval; x264's own limit is only a safety net.
            let keyframeSeconds = intervalTicks > 0 ? 2 * fragmentInterval : 10
            let settings = MovieEncoder.Settings(
                width: width, height: height, frameRate: frameRate, fullRange: video.fullRange, bitRate: video.bitRate,
                maximumKeyframeInterval: video.maximumKeyframeInterval ?? Int((keyframeSeconds * frameRate).rounded(.up)),
                preset: MovieEncoder.defaultPreset, displayP3: video.displayP3, ycbcrBT601: video.ycbcrBT601, hevc: video.hevc,
                tenBit: video.tenBit && video.hevc, hlg: video.hlg, colorTags: video.colorTags, pixelAspectRatio: video.pixelAspectRatio, profile: video.profile,
                level: video.level)
            encoder = try MovieEncoder(settings: settings, globalHeader: true)
        }
        let audioEncoder = try configuration.audio.map { settings throws(MovieWriterError) in
            if case .linearPCM = settings.codec, configuration.container != .quickTime {
                throw .invalidSettings("linear PCM audio needs a QuickTime movie")
            }
            return try MovieAudioEncoder(settings: settings)
        }
        if configuration.container == .m4a && configuration.video != nil { throw .invalidSettings("an M4A file holds audio only") }

        self.url = url
        self.configuration = configuration
        width = configuration.video?.width ?? 0
        height = configuration.video?.height ?? 0
        self.encoder = encoder
        self.audioEncoder = audioEncoder
        plan = MovieFragmentPlan(interval: intervalTicks, frameDuration: frameTicks)
        durations = MovieFrameDurations(nominal: frameTicks)
        if let audio = configuration.audio { nextAudioFragment = Int64(fragmentInterval * Double(audio.sampleRate)) }
        // A fragmented file has no edit list to hide AAC's priming before time 0 (its 'moov' is
        // written before any sample), and the muxer would otherwise shift a track that starts
        // below 0 by itself, or every track by whichever packet came first, a race between the
        // encoders. So the encoder starts at the priming: its priming packet is at 0 and
        // decodes to the silence that replaces the first 1024 samples (21 ms at 48 kHz), and
        // every sample after keeps its time.
        if intervalTicks > 0, let audioEncoder { nextAudioSample = Int64(audioEncoder.primingSamples) }
        muxer = try MovieMuxer(url: url, format: configuration.container.muxerName, fragmented: intervalTicks > 0)
        do {
            var video = -1, audio = -1
            if let encoder, let settings = configuration.video {
                video = try muxer.addVideoTrack(
                    displayMatrix: settings.displayMatrix, frameRate: av_d2q(settings.frameRate, 1_001_000), timeScale: settings.timeScale
                ) {
                    parameters throws(MovieWriterError) in try encoder.copyParameters(to: parameters)
                }
            }
            if let audioEncoder {
                audio = try muxer.addAudioTrack(sampleRate: Int32(audioEncoder.settings.sampleRate)) {
                    parameters throws(MovieWriterError) in try audioEncoder.copyParameters(to: parameters)
                }
            }
            videoTrack = video
            audioTrack = audio
            var streams: [Int] = []
            for _ in configuration.metadataTracks { streams.append(try muxer.addDataTrack()) }
            metadataStreams = streams
            pendingMetadata = Array(repeating: nil, count: streams.count)
            try muxer.writeHeader(
                metadata: configuration.metadata, firstFragmentNumber: configuration.firstFragmentNumber,
                fastStart: configuration.fastStart, movieTimeScale: configuration.movieTimeScale,
                metadataKeys: configuration.quickTimeMetadataKeys)
            if muxer.fragmented, !streams.isEmpty {
                let rewrite = metadataRewrite
                try muxer.rewriteHeaderMoov { rewrite.moov($0, shift: 0) }
            }
        } catch {
            // A file without a usable header is of no use to anyone.
            muxer.release(keepingFile: false)
            throw error
        }
    }

    /// Makes `time` the movie's time 0 (AVAssetWriter's `startSession(atSourceTime:)`); the
    /// first media appended does it otherwise. Only the first call counts.
    package func startSession(at time: CMTime) {
        if origin == nil, time.isNumeric { origin = time }
    }

    /// Ends the movie at `time` (on the appended media's clock): media appended from now on
    /// at or after it is not written, and the last frame lasts until it. Media already
    /// appended past it stays (FFmpeg's muxer writes no edit list that would hide it).
    package func endSession(at time: CMTime) {
        guard time.isNumeric else { return }
        end = time
    }

    /// Encodes a frame.
    ///
    /// - Parameter presentationTime: the frame's time on any clock; it must be at or after
    ///   the origin and later than the frame before (after rounding to 1/90000 s).
    /// - Throws: `.frameSizeMismatch` or `.invalidTimestamp` for a frame that was skipped (the
    ///   writer goes on); anything else means the writer has failed: later calls throw the
    ///   same error, and the file keeps every fragment completed before the failure.
    /// `forceKeyFrame` makes the frame a keyframe (an app's
    /// `kCMSampleBufferAttachmentKey_ForceKeyFrame`); it does not start a fragment.
    package func append(_ buffer: CVPixelBuffer, presentationTime: CMTime, forceKeyFrame: Bool = false) throws(MovieWriterError) {
        try checkWriting()
        guard let encoder else { throw .invalidSettings("the movie has no video track") }
        guard buffer.format.isPicture else {
            throw .invalidSettings("a '\(buffer.format.fourCC)' buffer is not a picture: the video track takes Y'CbCr or BGRA frames")
        }
        guard buffer.width == width, buffer.height == height else { throw .frameSizeMismatch }
        guard presentationTime.isNumeric else { throw .invalidTimestamp }
        if let end, CMTimeCompare(presentationTime, end) >= 0 { return }
        let start = origin ?? presentationTime
        let relative = CMTimeSubtract(presentationTime, start).convertScale(Self.timescale, method: .roundHalfAwayFromZero)
        guard relative.isNumeric, relative.value >= 0, relative.value > lastTime else { throw .invalidTimestamp }
        origin = start
        let time = relative.value
        let keyframe = plan.forcesKeyframe(at: time) || forceKeyFrame
        durations.submit(time)
        do {
            try encoder.encode(buffer, time: time, keyframe: keyframe) { packet throws(MovieWriterError) in
                try write(packet)
            }
        } catch {
            fail(error)
            throw error
        }
        lastTime = time
        framesWritten += 1
    }

    /// Adds a sample of timed-metadata track `track` (an index of
    /// `configuration.metadataTracks`): boxes made by `MovieMetadataTrackSettings.sample`,
    /// which apply from `presentationTime` until the next sample (the last one until the
    /// movie's end). An empty sample marks a time without metadata.
    ///
    /// - Throws: `.invalidTimestamp` for a time that is not numeric, before the origin or not
    ///   after the track's previous sample (skipped, the writer goes on); anything else means
    ///   the writer has failed.
    package func appendMetadata(_ sample: Data, track: Int, presentationTime: CMTime) throws(MovieWriterError) {
        try checkWriting()
        guard metadataStreams.indices.contains(track) else { throw .invalidSettings("the movie has no metadata track \(track)") }
        guard presentationTime.isNumeric else { throw .invalidTimestamp }
        if let end, CMTimeCompare(presentationTime, end) >= 0 { return }
        let start = origin ?? presentationTime
        let relative = CMTimeSubtract(presentationTime, start).convertScale(Self.timescale, method: .roundHalfAwayFromZero)
        guard relative.isNumeric, relative.value >= 0 else { throw .invalidTimestamp }
        if let previous = pendingMetadata[track], relative.value <= previous.time { throw .invalidTimestamp }
        origin = start
        do {
            if let previous = pendingMetadata[track] {
                try writeMetadata(previous.sample, track: track, time: previous.time, duration: relative.value - previous.time)
            }
        } catch {
            fail(error)
            throw error
        }
        // An empty group is still a sample: a 'free' box, which readers skip.
        pendingMetadata[track] = (sample.isEmpty ? BoxCoding.box("free", Data()) : sample, relative.value)
    }

    /// Writes each track's last sample, lasting until the movie's end.
    private func flushMetadata() throws(MovieWriterError) {
        var stop = framesWritten > 0 ? lastTime + durations.nominal : 0
        if let audio = configuration.audio {
            stop = max(stop, nextAudioSample * Int64(Self.timescale) / Int64(audio.sampleRate))
        }
        if let end, let origin {
            stop = CMTimeSubtract(end, origin).convertScale(Self.timescale, method: .roundHalfAwayFromZero).value
        }
        for track in pendingMetadata.indices {
            guard let last = pendingMetadata[track] else { continue }
            pendingMetadata[track] = nil
            try writeMetadata(last.sample, track: track, time: last.time, duration: max(stop - last.time, 1))
        }
    }

    private func writeMetadata(_ sample: Data, track: Int, time: Int64, duration: Int64) throws(MovieWriterError) {
        var allocated = av_packet_alloc()
        defer { av_packet_free(&allocated) }
        guard let packet = allocated else { throw .io("out of memory") }
        guard av_new_packet(packet, Int32(sample.count)) >= 0 else { throw .io("out of memory") }
        sample.withUnsafeBytes { packet.pointee.data.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: sample.count) }
        packet.pointee.pts = time
        packet.pointee.dts = time
        packet.pointee.duration = duration
        packet.pointee.flags |= AV_PKT_FLAG_KEY
        try muxer.write(packet, track: metadataStreams[track])
    }

    /// The rewrite that makes the data tracks boxed metadata (track IDs are stream indices + 1).
    private var metadataRewrite: MetadataTrackRewrite {
        var tracks: [UInt32: MovieMetadataTrackSettings] = [:]
        for (index, stream) in metadataStreams.enumerated() { tracks[UInt32(stream + 1)] = configuration.metadataTracks[index] }
        return MetadataTrackRewrite(tracks: tracks, videoTrackID: videoTrack >= 0 ? UInt32(videoTrack + 1) : nil)
    }

    /// Encodes linear PCM: `frames` samples per channel from `presentationTime`.
    ///
    /// - Throws: `.invalidSettings` for audio of another rate or channel count than the
    ///   track's and `.invalidTimestamp` for a non-numeric time (the buffer is skipped, the
    ///   writer goes on); anything else means the writer has failed.
    package func appendAudio(
        _ data: UnsafeRawBufferPointer, frames: Int, layout: PCMLayout, presentationTime: CMTime
    ) throws(MovieWriterError) {
        try checkWriting()
        guard let audioEncoder else { throw .invalidSettings("the movie has no audio track") }
        let settings = audioEncoder.settings
        guard layout.channels == settings.channels, layout.sampleRate == Double(settings.sampleRate) else {
            throw .invalidSettings(
                "audio of \(layout.sampleRate) Hz, \(layout.channels) channels into a track of \(settings.sampleRate) Hz, \(settings.channels) channels")
        }
        guard presentationTime.isNumeric else { throw .invalidTimestamp }
        guard frames > 0, data.count >= frames * layout.channels * layout.sample.bytes else { return }
        let start = origin ?? presentationTime
        origin = start
        let rate = Int32(settings.sampleRate)
        var first = CMTimeSubtract(presentationTime, start).convertScale(rate, method: .roundHalfAwayFromZero).value
        var count = frames
        if let end {
            let last = CMTimeSubtract(end, start).convertScale(rate, method: .roundHalfAwayFromZero).value
            count = Int(max(0, min(Int64(count), last - first)))
        }
        var samples = Self.planarFloats(data, frames: frames, layout: layout)
        // Samples before the origin or already written are cut; a gap becomes silence.
        let skip = Int(max(0, min(Int64(count), nextAudioSample - first)))
        if skip > 0 {
            for channel in samples.indices { samples[channel].removeFirst(skip) }
            count -= skip
            first += Int64(skip)
        }
        guard count > 0 else { return }
        do {
            if first > nextAudioSample {
                let gap = Int(first - nextAudioSample)
                try encodeAudio(Array(repeating: [Float](repeating: 0, count: gap), count: settings.channels), count: gap)
            }
            try encodeAudio(samples, count: count)
        } catch {
            fail(error)
            throw error
        }
    }

    private func encodeAudio(_ samples: [[Float]], count: Int) throws(MovieWriterError) {
        guard let audioEncoder else { return }
        try audioEncoder.encode(samples, count: count, time: nextAudioSample) { packet throws(MovieWriterError) in
            try writeAudio(packet)
        }
        nextAudioSample += Int64(count)
    }

    /// The samples of each channel as floats in -1...1.
    static func planarFloats(_ data: UnsafeRawBufferPointer, frames: Int, layout: PCMLayout) -> [[Float]] {
        let channels = layout.channels, bytes = layout.sample.bytes
        return (0..<channels).map { channel in
            (0..<frames).map { index in
                let offset =
                    layout.nonInterleaved ? (channel * frames + index) * bytes : (index * channels + channel) * bytes
                switch layout.sample {
                case .int16: return Float(data.loadUnaligned(fromByteOffset: offset, as: Int16.self)) / 32768
                case .int32: return Float(Double(data.loadUnaligned(fromByteOffset: offset, as: Int32.self)) / 2_147_483_648)
                case .float32: return data.loadUnaligned(fromByteOffset: offset, as: Float.self)
                }
            }
        }
    }

    /// Encodes the frames still in the encoders, writes the last fragment and the index, and
    /// closes the file. Calling it again does nothing; after a failure it throws that failure.
    package func finish() throws(MovieWriterError) {
        switch state {
        case .writing: break
        case .finished: return
        case .failed(let error): throw error
        }
        do {
            if let end, let origin, lastTime >= 0 {
                let stop = CMTimeSubtract(end, origin).convertScale(Self.timescale, method: .roundHalfAwayFromZero).value
                if stop > lastTime { durations.nominal = stop - lastTime }
            }
            try encoder?.flush { packet throws(MovieWriterError) in try write(packet) }
            try audioEncoder?.flush { packet throws(MovieWriterError) in try writeAudio(packet) }
            try flushMetadata()
            try muxer.finish()
            if !muxer.fragmented, !metadataStreams.isEmpty { try metadataRewrite.rewriteFile(at: url.path) }
        } catch {
            fail(error)
            throw error
        }
        state = .finished
    }

    /// Stops for good without finishing: the file keeps what reached it (AVAssetWriter's
    /// `cancelWriting` then deletes it).
    package func cancel() {
        if case .writing = state { fail(.notWriting) }
    }

    /// The media recorded so far: the later of the video (last time - first time + one
    /// nominal frame) and audio ends; 0 before any media.
    package var recordedDuration: CMTime {
        var duration = CMTime.zero
        if framesWritten > 0 { duration = CMTime(value: lastTime + durations.nominal, timescale: Self.timescale) }
        if let audio = configuration.audio, nextAudioSample > 0 {
            duration = CMTimeMaximum(duration, CMTime(value: nextAudioSample, timescale: Int32(audio.sampleRate)))
        }
        return duration
    }

    /// The video recorded so far (last time - first time + one nominal frame); 0 before any frame.
    package var recordedVideoDuration: CMTime {
        framesWritten > 0 ? CMTime(value: lastTime + durations.nominal, timescale: Self.timescale) : .zero
    }

    /// Bytes recorded so far: the file's size plus the encoded samples of the current
    /// fragment, which reach the file when the fragment is cut. The file's exact size
    /// once finished.
    package var recordedFileSize: Int64 { muxer.recordedSize }

    /// Fragments written to the file so far (0 when not fragmented, until `finish`).
    package var fragmentsWritten: Int { muxer.fragmentCount }

    private func checkWriting() throws(MovieWriterError) {
        switch state {
        case .writing: break
        case .finished: throw .notWriting
        case .failed(let error): throw error
        }
    }

    /// Gives a packet its duration, cuts the fragment before a forced keyframe, and muxes it.
    private func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) {
        let time = packet.pointee.pts
        packet.pointee.duration = durations.take(time)
        let isKeyframe = packet.pointee.flags & AV_PKT_FLAG_KEY != 0
        if plan.startsFragment(time: time, isKeyframe: isKeyframe) { try muxer.cutFragment() }
        try muxer.write(packet, track: videoTrack)
    }

    /// Muxes an audio packet; without video, fragments are cut by audio time.
    private func writeAudio(_ packet: UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) {
        if encoder == nil, plan.interval > 0, let audio = configuration.audio, packet.pointee.pts >= nextAudioFragment {
            try muxer.cutFragment()
            let step = max(Int64(configuration.fragmentInterval * Double(audio.sampleRate)), 1)
            while nextAudioFragment <= packet.pointee.pts { nextAudioFragment += step }
        }
        try muxer.write(packet, track: audioTrack)
    }

    /// Stops for good: closes the file as it stands, keeping the fragments already written.
    private func fail(_ error: MovieWriterError) {
        state = .failed(error)
        muxer.release(keepingFile: true)
    }
}

extension MovieWriter {
    /// Whether `hevc: true` can work here: FFmpeg has libx265.
    package static var canEncodeHEVC: Bool { MovieEncoder.canEncodeHEVC }
}

extension MovieWriter {
    /// The track matrix that turns the picture `degrees` clockwise (a multiple of 90), for
    /// `MovieVideoSettings.displayMatrix`; nil for none. Loads FFmpeg.
    package static func displayMatrix(rotationDegrees degrees: Int) throws(MovieWriterError) -> [Int32]? {
        let rotation = (degrees % 360 + 360) % 360
        guard rotation != 0 else { return nil }
        guard rotation % 90 == 0 else { throw .invalidSettings("rotation \(degrees) is not a multiple of 90") }
        try FFmpegLibraries.load()
        return MovieMuxer.rotationMatrix(degrees: rotation)
    }
}

extension MovieWriter {
    /// Whether FFmpeg's libraries load here (an H.264 movie can be written).
    package static var isAvailable: Bool { (try? FFmpegLibraries.load()) != nil }
}
