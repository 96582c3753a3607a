import CFFmpeg
import CaptureCore
import Foundation

/// What a live stream carries.
package struct StreamSettings: Sendable {
    /// Width and height in pixels; even.
    package var width: Int
    package var height: Int
    /// Nominal frames per second (rate control and each packet's duration).
    package var frameRate: Double
    /// Average video bits per second (peaks held to 1.5 times it over a second).
    package var bitRate: Int
    /// HEVC (libx265) instead of H.264 (libx264).
    package var hevc = false
    /// The frames are full-range (0-255) Y'CbCr.
    package var fullRange = false
    /// The frames are Y'CbCr made with the BT.601 matrix (V4L2 cameras), tagged so.
    package var ycbcrBT601 = false
    /// Seconds between the keyframes the encoder makes of its own accord; a keyframe also
    /// starts every connection.
    package var keyframeInterval = 2.0
    /// AAC audio of this rate and channel count (appended audio must match), or nil.
    package var audio: MovieAudioSettings?

    package init(width: Int, height: Int, frameRate: Double, bitRate: Int) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.bitRate = bitRate
    }
}

/// One connection of a live stream: encodes pixel buffers (and PCM) with the movie writer's
/// encoders, tuned for latency, and sends them through libavformat to an RTSP, SRT or RTMP
/// peer (`StreamTarget`).
///
/// The encoders are `MovieEncoder` (libx264 'veryfast' or libx265 'ultrafast', both with
/// `tune=zerolatency`: no look-ahead and no frame threads, so each frame's packet leaves the
/// encoder before the next frame arrives) and `MovieAudioEncoder` (AAC). The first frame is a
/// keyframe, so a receiver can start decoding at once; SPS/PPS travel in the SDP (RTSP), the
/// FLV sequence header (RTMP) or before every keyframe (MPEG-TS over SRT). Each packet is
/// flushed to the socket when written.
///
/// A writer lives for one connection: when a write fails (the peer went away) it is of no
/// further use, and the caller makes a new one to reconnect. Times are relative to the first
/// frame, which is time 0 on the wire.
///
/// Not thread-safe: one thread at a time, except `interrupt`, which any thread may cancel.
package final class StreamWriter {
    package let target: StreamTarget
    package let settings: StreamSettings
    private let interrupt: StreamInterrupt
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let encoder: MovieEncoder
    private let audioEncoder: MovieAudioEncoder?
    private var videoTimeBase = MovieEncoder.timeBase
    private var audioTimeBase = AVRational(num: 1, den: 48_000)
    private var headerWritten = false
    private var origin: CMTime?
    private var lastTime: Int64 = -1
    private let frameTicks: Int64
    /// The next audio sample's time in samples from the origin; nil before the first.
    private var nextAudioSample: Int64?
    /// Seconds a write may block (a receiver that stopped reading) before it fails.
    private let writeTimeout: Double

    /// Frames sent; bytes of packets handed to the muxer.
    package private(set) var framesSent = 0
    package private(set) var bytesSent: Int64 = 0

    /// FFmpeg's network layer, started once. Its log lines ("Connection to tcp://...
    /// failed") stay quiet unless `OPENCAPTURE_FFMPEG_LOG` asks for them (CFFmpegRuntime
    /// sets the level once for every FFmpeg user); the reasons reach the caller in the errors.
    private static let networkReady: Void = {
        _ = avformat_network_init()
    }()

    /// Opens the encoders, connects (an SRT listener waits for its caller) and writes the
    /// stream's header.
    ///
    /// - Parameters:
    ///   - connectTimeout: seconds to connect and start (an SRT listener's wait included).
    ///   - writeTimeout: seconds one write may block before the connection counts as lost.
    ///   - interrupt: cancelling it ends a connection attempt or a blocked write at once.
    /// - Throws: `.invalidSettings` for settings the target cannot carry, `.encoder` when an
    ///   encoder cannot open, `.cannotOpen` when the peer cannot be reached.
    package init(
        target: StreamTarget, settings: StreamSettings, interrupt: StreamInterrupt, connectTimeout: Double = 5, writeTimeout: Double = 2
    ) throws(MovieWriterError) {
        try FFmpegLibraries.load()
        Self.networkReady
        guard settings.width > 0, settings.height > 0, settings.width % 2 == 0, settings.height % 2 == 0 else {
            throw .invalidSettings("\(settings.width)x\(settings.height): 4:2:0 video needs even, positive dimensions")
        }
        guard settings.frameRate.isFinite, settings.frameRate > 0 else { throw .invalidSettings("frame rate \(settings.frameRate)") }
        guard settings.bitRate > 0 else { throw .invalidSettings("bit rate \(settings.bitRate)") }
        if settings.hevc && target.kind == .rtmp { throw .invalidSettings("RTMP (FLV) carries H.264 only in this FFmpeg, not HEVC") }
        self.target = target
        self.settings = settings
        self.interrupt = interrupt
        self.writeTimeout = writeTimeout
        frameTicks = max(Int64((Double(MovieEncoder.timeBase.den) / settings.frameRate).rounded()), 1)
        let encoderSettings = MovieEncoder.Settings(
            width: settings.width, height: settings.height, frameRate: settings.frameRate, fullRange: settings.fullRange,
            bitRate: settings.bitRate, maximumKeyframeInterval: max(Int((settings.keyframeInterval * settings.frameRate).rounded()), 1),
            preset: MovieEncoder.defaultPreset, ycbcrBT601: settings.ycbcrBT601, hevc: settings.hevc, tune: "zerolatency")
        // MPEG-TS repeats the parameter sets in-band before each keyframe; RTSP's SDP and
        // FLV's sequence header need them out of band.
        encoder = try MovieEncoder(settings: encoderSettings, globalHeader: target.kind != .srt)
        audioEncoder = try settings.audio.map { audio throws(MovieWriterError) in
            guard case .aac = audio.codec else { throw .invalidSettings("a stream's audio is AAC") }
            return try MovieAudioEncoder(settings: audio)
        }
        var context: UnsafeMutablePointer<AVFormatContext>?
        let allocated = avformat_alloc_output_context2(&context, nil, target.muxerName, target.url)
        guard allocated >= 0, let context else { throw .cannotOpen("no \(target.muxerName) muxer: \(MovieWriterError.message(allocated))") }
        self.context = context
        context.pointee.interrupt_callback = AVIOInterruptCB(
            callback: streamInterruptCallback, opaque: Unmanaged.passUnretained(interrupt).toOpaque())
        try addStreams(context)
        try connect(context, timeout: connectTimeout)
    }

    deinit { close() }

    private func addStreams(_ context: UnsafeMutablePointer<AVFormatContext>) throws(MovieWriterError) {
        guard let video = avformat_new_stream(context, nil) else { throw .io("cannot add the video stream") }
        try encoder.copyParameters(to: video.pointee.codecpar)
        // The movie writer's 'hvc1' tag is MP4's; the stream muxers pick their own.
        video.pointee.codecpar.pointee.codec_tag = 0
        video.pointee.time_base = MovieEncoder.timeBase
        video.pointee.avg_frame_rate = av_d2q(settings.frameRate, 1_001_000)
        video.pointee.r_frame_rate = video.pointee.avg_frame_rate
        if let audioEncoder, let stream = avformat_new_stream(context, nil) {
            try audioEncoder.copyParameters(to: stream.pointee.codecpar)
            stream.pointee.time_base = AVRational(num: 1, den: Int32(audioEncoder.settings.sampleRate))
        } else if audioEncoder != nil {
            throw .io("cannot add the audio stream")
        }
    }

    private func connect(_ context: UnsafeMutablePointer<AVFormatContext>, timeout: Double) throws(MovieWriterError) {
        interrupt.arm(seconds: timeout)
        let started = Date()
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if target.kind == .rtsp {
            // RTP inside the RTSP connection: one TCP stream to pass firewalls, and a receiver
            // that leaves breaks it, which the next write notices.
            av_dict_set(&options, "rtsp_transport", "tcp", 0)
        } else {
            var ioOptions: OpaquePointer?
            defer { av_dict_free(&ioOptions) }
            // libsrt gives up on a silent peer after its own 3 s: make that the caller's
            // timeout, so a failure before it is a refusal, not a missing answer.
            // Clamped to a day: Int(_:) traps on infinity and on values beyond Int.
            let milliseconds = timeout.isFinite ? Int((min(max(timeout, 0), 86_400) * 1000).rounded()) : 86_400_000
            if target.kind == .srt { av_dict_set(&ioOptions, "connect_timeout", String(milliseconds), 0) }
            let opened = avio_open2(&context.pointee.pb, target.url, AVIO_FLAG_WRITE, &context.pointee.interrupt_callback, &ioOptions)
            guard opened >= 0 else { throw connectError(opened, after: Date().timeIntervalSince(started), timeout: timeout) }
        }
        let written = avformat_write_header(context, &options)
        guard written >= 0 else { throw connectError(written, after: Date().timeIntervalSince(started), timeout: timeout) }
        headerWritten = true
        if let video = context.pointee.streams[0] { videoTimeBase = video.pointee.time_base }
        if context.pointee.nb_streams > 1, let audio = context.pointee.streams[1] { audioTimeBase = audio.pointee.time_base }
        try flush()
    }

    /// Why connecting failed, in words that say what failed and with FFmpeg's own text; never
    /// the URL, which the caller shows without its secrets (`StreamTarget.displayURL`). A
    /// timeout ends in "(timed out)", which an SRT listener takes as "no caller yet".
    private func connectError(_ code: Int32, after seconds: Double, timeout: Double) -> MovieWriterError {
        if interrupt.isCancelled { return .cannotOpen("cancelled") }
        let limit = String(format: "%g", timeout)
        if interrupt.timedOut { return .cannotOpen("no answer in \(limit) s (timed out)") }
        let ffmpeg = MovieWriterError.message(code)
        // libsrt reports a failed handshake as EIO alone: its timing tells a silent peer
        // (at the connect timeout) from one that refused (before it).
        if target.kind == .srt && code == cffmpeg_averror(EIO) {
            if seconds >= timeout * 0.9 { return .cannotOpen("no answer in \(limit) s, FFmpeg: \(ffmpeg) (timed out)") }
            return .cannotOpen("the peer refused the SRT connection (FFmpeg: \(ffmpeg))")
        }
        return .cannotOpen("could not connect: \(ffmpeg)")
    }

    /// Encodes and sends a frame.
    ///
    /// - Parameter keyframe: make it a keyframe (the first frame always is).
    /// - Throws: `.frameSizeMismatch` or `.invalidTimestamp` for a frame skipped (the
    ///   connection goes on); anything else means the connection is lost.
    package func append(_ buffer: CVPixelBuffer, presentationTime: CMTime, keyframe: Bool = false) throws(MovieWriterError) {
        guard context != nil else { throw .notWriting }
        guard buffer.width == settings.width, buffer.height == settings.height else { throw .frameSizeMismatch }
        guard presentationTime.isNumeric else { throw .invalidTimestamp }
        let start = origin ?? presentationTime
        let relative = CMTimeSubtract(presentationTime, start).convertScale(MovieEncoder.timeBase.den, method: .roundHalfAwayFromZero)
        guard relative.isNumeric, relative.value >= 0, relative.value > lastTime else { throw .invalidTimestamp }
        origin = start
        interrupt.arm(seconds: writeTimeout)
        do {
            try encoder.encode(buffer, time: relative.value, keyframe: keyframe || lastTime < 0) { packet throws(MovieWriterError) in
                packet.pointee.duration = frameTicks
                try write(packet, stream: 0, from: MovieEncoder.timeBase, to: videoTimeBase)
            }
        } catch {
            fail()
            throw error
        }
        lastTime = relative.value
        framesSent += 1
    }

    /// Encodes and sends linear PCM from `presentationTime`. Audio before the first frame is
    /// left out (the stream starts with a picture); after that, samples follow each other
    /// (a gap in the times is not filled).
    package func appendAudio(
        _ data: UnsafeRawBufferPointer, frames: Int, layout: PCMLayout, presentationTime: CMTime
    ) throws(MovieWriterError) {
        guard context != nil else { throw .notWriting }
        guard let audioEncoder else { throw .invalidSettings("the stream has no audio") }
        let audio = audioEncoder.settings
        guard layout.channels == audio.channels, layout.sampleRate == Double(audio.sampleRate) else {
            throw .invalidSettings("audio of \(layout.sampleRate) Hz, \(layout.channels) channels into a stream of \(audio.sampleRate) Hz, \(audio.channels) channels")
        }
        guard let origin, presentationTime.isNumeric, frames > 0, data.count >= frames * layout.channels * layout.sample.bytes else { return }
        let first = CMTimeSubtract(presentationTime, origin).convertScale(Int32(audio.sampleRate), method: .roundHalfAwayFromZero).value
        var samples = MovieWriter.planarFloats(data, frames: frames, layout: layout)
        var count = frames
        let start = nextAudioSample ?? max(first, 0)
        if first < 0 {
            let skip = Int(min(Int64(count), -first))
            for channel in samples.indices { samples[channel].removeFirst(skip) }
            count -= skip
        }
        guard count > 0 else { return }
        interrupt.arm(seconds: writeTimeout)
        do {
            try audioEncoder.encode(samples, count: count, time: start) { packet throws(MovieWriterError) in
                try write(packet, stream: 1, from: AVRational(num: 1, den: Int32(audio.sampleRate)), to: audioTimeBase)
            }
        } catch {
            fail()
            throw error
        }
        nextAudioSample = start + Int64(count)
    }

    private func write(
        _ packet: UnsafeMutablePointer<AVPacket>, stream: Int32, from source: AVRational, to destination: AVRational
    ) throws(MovieWriterError) {
        guard let context else { throw .notWriting }
        packet.pointee.stream_index = stream
        av_packet_rescale_ts(packet, source, destination)
        bytesSent += Int64(packet.pointee.size)
        let written = av_write_frame(context, packet)
        guard written >= 0 else { throw lostError(written) }
        try flush()
    }

    private func flush() throws(MovieWriterError) {
        guard let pb = context?.pointee.pb else { return }
        avio_flush(pb)
        if pb.pointee.error < 0 { throw lostError(pb.pointee.error) }
    }

    private func lostError(_ code: Int32) -> MovieWriterError {
        if interrupt.isCancelled { return .io("cancelled") }
        if interrupt.timedOut { return .io("the receiver stopped reading (a write blocked for \(writeTimeout) s)") }
        return .io("the connection was lost: \(MovieWriterError.message(code))")
    }

    /// Ends the stream: writes the trailer (RTSP's TEARDOWN; it also frees the RTSP
    /// muxer's connection, which has no other way out) and closes the connection, giving it
    /// half a second at most. Calling it again does nothing.
    package func close() {
        guard let context else { return }
        if headerWritten {
            interrupt.arm(seconds: 0.5)
            _ = av_write_trailer(context)
        }
        if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
        self.context = nil
    }

    /// The connection is lost: close it (what is left to send may fail).
    private func fail() { close() }
}
