import CFFmpeg
import CaptureCore
import Foundation

/// Decodes one stream of a media file, in presentation order, from a start time to an end:
/// video as pixel buffers in a chosen format (converted by libswscale), audio as
/// interleaved linear PCM.
///
/// Each decoder opens the file on its own, so several can read the tracks of one file
/// independently. Not thread-safe: call it from one thread at a time.
package final class MovieTrackDecoder: @unchecked Sendable {
    /// Linear PCM the audio is converted to: interleaved, native-endian, at the track's
    /// sample rate and channel count.
    package struct PCMFormat: Sendable, Equatable {
        package var float: Bool
        package var bitsPerChannel: Int
        package init(float: Bool, bitsPerChannel: Int) {
            self.float = float
            self.bitsPerChannel = bitsPerChannel
        }
        package var bytesPerSample: Int { bitsPerChannel / 8 }

        /// Writes one sample at `offset`: floats as given, integers clamped to -1...1 (NaN is
        /// silence: converting it would trap), 8-bit as offset binary.
        package func store(_ value: Double, into bytes: UnsafeMutableRawBufferPointer, at offset: Int) {
            let v = value.isNaN ? 0 : min(max(value, -1), 1)
            switch (float, bitsPerChannel) {
            case (true, 64): bytes.storeBytes(of: value, toByteOffset: offset, as: Double.self)
            case (true, _): bytes.storeBytes(of: Float(value), toByteOffset: offset, as: Float.self)
            case (false, 32): bytes.storeBytes(of: Int32(clamping: Int64((v * 2_147_483_648).rounded())), toByteOffset: offset, as: Int32.self)
            case (false, 24):
                let word = Int32(clamping: Int64((v * 8_388_608).rounded()))
                bytes[offset] = UInt8(truncatingIfNeeded: word)
                bytes[offset + 1] = UInt8(truncatingIfNeeded: word >> 8)
                bytes[offset + 2] = UInt8(truncatingIfNeeded: word >> 16)
            case (false, 8): bytes[offset] = UInt8(clamping: Int((v * 128).rounded()) + 128)
            default: bytes.storeBytes(of: Int16(clamping: Int((v * 32768).rounded())), toByteOffset: offset, as: Int16.self)
            }
        }
    }

    /// One decoded frame, or one decoded block of audio.
    package enum Sample: @unchecked Sendable {
        case video(CVBuffer, time: CMTime, duration: CMTime)
        /// Interleaved PCM of `frames` sample frames starting at `time`.
        case audio(Data, frames: Int, time: CMTime)

        package var time: CMTime {
            switch self {
            case .video(_, let time, _), .audio(_, _, let time): time
            }
        }
    }

    package let track: MovieTrackInfo
    /// The video output's format; a change applies from the next frame converted.
    package var pixelFormat: PixelFormat? {
        didSet {
            guard pixelFormat != oldValue, let scaler else { return }
            sws_freeContext(scaler)
            self.scaler = nil
            scalerKey = nil
        }
    }
    /// Where converted pictures go when its format and size match (else each is a new buffer).
    package var pool: CVPixelBufferPool?
    /// Why reading stopped before the end of the file (a read error other than the end), if it did.
    package private(set) var readFailure: String?
    private let pcm: PCMFormat?
    private var start: CMTime
    private let end: CMTime?
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private var draining = false
    private var finished = false
    /// The last frame before `start`, held until it is known whether it is shown at `start`.
    private var held: Sample?
    private var queued: [Sample] = []
    /// Set once a video frame came without a time (a raw .h264/.hevc elementary stream):
    /// times are then counted from the start, one frame duration each, and every seek goes
    /// back to the start so the count stays true.
    private var untimed = false
    /// Whether frames came without times, so a seek goes back to the first byte.
    package var isUntimed: Bool { untimed }
    /// The time the next untimed frame gets: the last frame's end.
    private var nextTime: CMTime?

    /// Opens the file for one track.
    ///
    /// - Parameters:
    ///   - track: a track `MovieReader` described.
    ///   - pixelFormat: the video output's format (420v, 420f, y420, f420, BGRA).
    ///   - pcm: the audio output's format.
    ///   - start: the first time wanted; the decoder seeks to the keyframe before it.
    ///   - end: the time where reading stops (nil: the end of the track).
    ///   - threads: decoding threads (0: as many as FFmpeg likes; 1 keeps decoding on the caller's thread).
    package init(
        url: URL, track: MovieTrackInfo, pixelFormat: PixelFormat?, pcm: PCMFormat?, start: CMTime = .zero, end: CMTime? = nil,
        threads: Int = 1
    ) throws(MovieReaderError) {
        self.track = track
        self.pixelFormat = pixelFormat
        self.pcm = pcm
        self.start = start
        self.end = end
        let context = try MovieReader.open(url)
        self.context = context
        guard track.index < Int(context.pointee.nb_streams), let stream = context.pointee.streams[track.index] else {
            throw .cannotParse("no stream \(track.index)")
        }
        for index in 0..<Int(context.pointee.nb_streams) where index != track.index {
            context.pointee.streams[index]?.pointee.discard = AVDISCARD_ALL
        }
        guard let decoder = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) else { throw .noDecoder(track.codecName) }
        codec = avcodec_alloc_context3(decoder)
        guard let codec, avcodec_parameters_to_context(codec, stream.pointee.codecpar) >= 0 else { throw .noDecoder(track.codecName) }
        codec.pointee.pkt_timebase = stream.pointee.time_base
        codec.pointee.thread_count = Int32(threads)
        // A picture larger than any camera's is refused before it is allocated (MovieReader).
        codec.pointee.max_pixels = Int64(MovieReader.maximumPicturePixels)
        let opened = avcodec_open2(codec, decoder, nil)
        guard opened >= 0 else { throw .noDecoder("\(track.codecName): \(MovieWriterError.message(opened))") }
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        // A raw elementary stream's demuxer says up front that it has no times: seeks go by
        // byte from the first frame on, not only once a frame without a time was seen.
        if let format = context.pointee.iformat, format.pointee.flags & AVFMT_NOTIMESTAMPS != 0 { untimed = true }
        if start > .zero, start.isNumeric {
            // Rescaled from the time's own units: `seconds * 1e6` trapped converting a huge time.
            let target = av_rescale_q(start.value, AVRational(num: 1, den: start.timescale), stream.pointee.time_base)
            // A file that cannot seek is read from its start; frames before `start` are dropped.
            _ = avformat_seek_file(context, Int32(track.index), Int64.min, target, target, 0)
        }
    }

    deinit {
        if let scaler { sws_freeContext(scaler) }
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        avformat_close_input(&context)
    }

    /// Moves to the keyframe at or before `time` (the file's start when there is none, or
    /// when the demuxer cannot seek there): `next()` then returns every frame decoded from
    /// it, the ones before `time` included. Returns false when the file cannot seek at all.
    @discardableResult
    package func seek(toKeyframeAtOrBefore time: CMTime) -> Bool {
        guard let context, let codec, let stream = context.pointee.streams[track.index] else { return false }
        let base = stream.pointee.time_base
        var target = time.isNumeric ? av_rescale_q(time.value, AVRational(num: 1, den: time.timescale), base) : 0
        let first = stream.pointee.start_time == Int64.min ? 0 : stream.pointee.start_time
        target = max(target, first)
        var sought: Int32
        if untimed {
            // No times to seek by: back to the first byte, where the count starts again.
            sought = avformat_seek_file(context, -1, Int64.min, 0, 0, AVSEEK_FLAG_BYTE)
            nextTime = nil
        } else {
            sought = avformat_seek_file(context, Int32(track.index), Int64.min, target, target, 0)
            if sought < 0 { sought = avformat_seek_file(context, Int32(track.index), Int64.min, first, first, 0) }
            if sought < 0 {
                // Not seekable by time at all: back to the first byte, frames counted anew.
                sought = avformat_seek_file(context, -1, Int64.min, 0, 0, AVSEEK_FLAG_BYTE)
                nextTime = nil
            }
        }
        avcodec_flush_buffers(codec)
        start = .negativeInfinity
        draining = false
        finished = false
        held = nil
        queued.removeAll()
        readFailure = nil
        return sought >= 0
    }

    /// The next sample at or after the start (the frame shown at the start included), nil
    /// at the end of the track or the range.
    package func next() throws(MovieReaderError) -> Sample? {
        while queued.isEmpty && !finished {
            guard let decoded = try decode() else {
                finished = true
                if let held { queued.append(held) }
                held = nil
                break
            }
            if let end, decoded.time >= end {
                finished = true
                if let held { queued.append(held) }
                held = nil
                break
            }
            if decoded.time < start {
                held = decoded
                continue
            }
            if let previous = held, decoded.time > start { queued.append(previous) }
            held = nil
            queued.append(decoded)
        }
        return queued.isEmpty ? nil : queued.removeFirst()
    }

    /// The next decoded frame in decode output order, nil at the end of the stream.
    private func decode() throws(MovieReaderError) -> Sample? {
        guard let context, let codec, let frame, let packet else { return nil }
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                return try convert(frame)
            }
            if received == cffmpeg_eof() { return nil }
            guard received == cffmpeg_eagain() else { throw .decodeFailed(MovieWriterError.message(received)) }
            if draining { return nil }
            let read = av_read_frame(context, packet)
            if read < 0 {
                if read != cffmpeg_eof() { readFailure = MovieWriterError.message(read) }
                // The end of the file (or of a truncated one): flush what the decoder holds.
                draining = true
                avcodec_send_packet(codec, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard Int(packet.pointee.stream_index) == track.index else { continue }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0 && sent != cffmpeg_eagain() { throw .decodeFailed(MovieWriterError.message(sent)) }
        }
    }

    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(MovieReaderError) -> Sample {
        let base = context!.pointee.streams[track.index]!.pointee.time_base
        var pts = frame.pointee.best_effort_timestamp
        if pts == Int64.min { pts = frame.pointee.pts }
        var time = pts == Int64.min ? CMTime.invalid : MovieReader.time(pts, base)
        if track.kind == .video {
            let duration = frame.pointee.pkt_duration > 0 ? MovieReader.time(frame.pointee.pkt_duration, base) : CMTime.invalid
            if !time.isNumeric {
                untimed = true
                time = nextTime ?? track.start
            }
            let rate = track.frameRate > 0 ? track.frameRate : 30
            nextTime = time + (duration.isNumeric && duration > .zero ? duration : CMTime(seconds: 1 / rate, preferredTimescale: 90_000))
            return .video(try picture(frame), time: time, duration: duration)
        }
        return try audio(frame, time: time)
    }

    /// What the converter was made for: a frame that differs (a stream whose picture size or
    /// format changes mid-way, as two raw encodes concatenated) gets a new one.
    private struct ScalerKey: Equatable {
        var width: Int32, height: Int32, source: Int32, sourceFull: Bool, matrix: Int32
        var outWidth: Int32, outHeight: Int32, target: Int32, targetFull: Bool
    }
    private var scalerKey: ScalerKey?

    /// The frame's pixels in `pixelFormat` at the track's size, converted by libswscale.
    ///
    /// Every frame comes out at the track's declared size, whatever size the stream switches
    /// to, so a consumer (and a buffer pool) sees one size for the whole track.
    private func picture(_ frame: UnsafeMutablePointer<AVFrame>) throws(MovieReaderError) -> CVBuffer {
        let format = pixelFormat ?? (track.fullRange ? .yuv420BiPlanarFullRange : .yuv420BiPlanarVideoRange)
        let frameWidth = frame.pointee.width, frameHeight = frame.pointee.height
        guard frameWidth > 0, frameHeight > 0 else { throw .decodeFailed("a frame without a picture size") }
        let width = track.width > 0 ? track.width : Int(frameWidth), height = track.height > 0 ? track.height : Int(frameHeight)
        let target: AVPixelFormat
        switch format {
        case .yuv420BiPlanarVideoRange, .yuv420BiPlanarFullRange: target = AV_PIX_FMT_NV12
        case .yuv420PlanarVideoRange, .yuv420PlanarFullRange: target = AV_PIX_FMT_YUV420P
        case .bgra: target = AV_PIX_FMT_BGRA
        default: throw .unsupportedFormat("pixel format \(format)")
        }
        let source = AVPixelFormat(frame.pointee.format)
        let sourceFull =
            frame.pointee.color_range == AVCOL_RANGE_JPEG || source == AV_PIX_FMT_YUVJ420P || source == AV_PIX_FMT_YUVJ422P
            || source == AV_PIX_FMT_YUVJ444P
        let space = frame.pointee.colorspace
        let matrix = space == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : space == AVCOL_SPC_BT2020_NCL ? SWS_CS_BT2020 : SWS_CS_ITU601
        let key = ScalerKey(
            width: frameWidth, height: frameHeight, source: frame.pointee.format, sourceFull: sourceFull, matrix: matrix,
            outWidth: Int32(width), outHeight: Int32(height), target: target.rawValue, targetFull: format.isFullRange)
        if scaler == nil || key != scalerKey {
            scalerKey = nil
            if let scaler { sws_freeContext(scaler) }
            scaler = sws_getContext(frameWidth, frameHeight, source, key.outWidth, key.outHeight, target, SWS_BILINEAR, nil, nil, nil)
            guard let scaler else { throw .unsupportedFormat("no conversion from FFmpeg pixel format \(frame.pointee.format)") }
            let coefficients = sws_getCoefficients(matrix)
            // BGRA is full range; Y'CbCr targets keep the range the format names.
            sws_setColorspaceDetails(scaler, coefficients, sourceFull ? 1 : 0, coefficients, key.targetFull ? 1 : 0, 0, 1 << 16, 1 << 16)
            scalerKey = key
        }
        let pooled = pool.flatMap { $0.format == format && $0.width == width && $0.height == height ? $0.dequeue() : nil }
        let buffer = pooled ?? CVBuffer(format: format, width: width, height: height)
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        let planes = max(CVPixelBufferGetPlaneCount(buffer), 1)
        var destinations = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        var strides = [Int32](repeating: 0, count: 4)
        for plane in 0..<planes {
            let address = planes == 1 && CVPixelBufferGetPlaneCount(buffer) == 0 ? CVPixelBufferGetBaseAddress(buffer) : CVPixelBufferGetBaseAddressOfPlane(buffer, plane)
            destinations[plane] = address?.assumingMemoryBound(to: UInt8.self)
            strides[plane] = Int32(CVPixelBufferGetPlaneCount(buffer) == 0 ? CVPixelBufferGetBytesPerRow(buffer) : CVPixelBufferGetBytesPerRowOfPlane(buffer, plane))
        }
        let converted = withUnsafePointer(to: &frame.pointee.data) { data in
            withUnsafePointer(to: &frame.pointee.linesize) { lines in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sources in
                    lines.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStrides in
                        sws_scale(scaler, sources, sourceStrides, 0, frameHeight, destinations, strides)
                    }
                }
            }
        }
        guard converted == Int32(height) else { throw .decodeFailed("pixel conversion failed") }
        return buffer
    }

    /// The frame's samples as interleaved PCM in `pcm` (16-bit integers by default).
    private func audio(_ frame: UnsafeMutablePointer<AVFrame>, time: CMTime) throws(MovieReaderError) -> Sample {
        let out = pcm ?? PCMFormat(float: false, bitsPerChannel: 16)
        let frames = Int(frame.pointee.nb_samples)
        let channels = Int(frame.pointee.ch_layout.nb_channels)
        let format = AVSampleFormat(frame.pointee.format)
        let planar = av_sample_fmt_is_planar(format) != 0
        var data = Data(count: frames * channels * out.bytesPerSample)
        let planes = withUnsafePointer(to: &frame.pointee.data) { $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { Array(UnsafeBufferPointer(start: $0, count: 8)) } }
        let extended = frame.pointee.extended_data
        func value(_ sample: Int, _ channel: Int) -> Double {
            let plane = planar ? (extended?[channel] ?? planes[min(channel, 7)])! : planes[0]!
            let at = planar ? sample : sample * channels + channel
            switch format {
            case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P: return Double(UnsafeRawPointer(plane).load(fromByteOffset: at * 2, as: Int16.self)) / 32768
            case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P: return Double(UnsafeRawPointer(plane).load(fromByteOffset: at * 4, as: Int32.self)) / 2_147_483_648
            case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP: return Double(UnsafeRawPointer(plane).load(fromByteOffset: at * 4, as: Float.self))
            case AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP: return UnsafeRawPointer(plane).load(fromByteOffset: at * 8, as: Double.self)
            case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P: return (Double(plane[at]) - 128) / 128
            default: return 0
            }
        }
        switch format {
        case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP,
            AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP, AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P:
            break
        default: throw .unsupportedFormat("FFmpeg sample format \(format.rawValue)")
        }
        data.withUnsafeMutableBytes { bytes in
            for sample in 0..<frames {
                for channel in 0..<channels {
                    // A NaN sample (float PCM from the file) is silence: converting it to an integer traps.
                    let raw = value(sample, channel)
                    let v = raw.isNaN ? 0 : min(max(raw, -1), 1)
                    out.store(v, into: bytes, at: (sample * channels + channel) * out.bytesPerSample)
                }
            }
        }
        return .audio(data, frames: frames, time: time)
    }
}
