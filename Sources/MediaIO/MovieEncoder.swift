import CFFmpeg
import CaptureCore
import ImageOps

/// Encodes pixel buffers to H.264 with libx264, or HEVC with libx265, through libavcodec.
///
/// The encoder takes NV12, the camera's own layout, so '420v'/'420f' buffers of the movie's
/// range are only copied; other formats and the other range are converted first with
/// `ImageTransform`. One `AVFrame` and one `AVPacket` serve every frame. Colour is tagged
/// BT.709 with the movie's range, as `ImageTransform` produces it.
///
/// Not thread-safe: one thread at a time, as `MovieWriter` calls it.
final class MovieEncoder {
    /// What the encoder makes.
    struct Settings {
        var width: Int
        var height: Int
        /// Nominal frames per second; tells x264's rate control how many bits a frame gets.
        var frameRate: Double
        var fullRange: Bool
        /// Average bits per second, or `nil` for constant quality (CRF 23) under a ceiling
        /// of `maximumBitsPerPixel`.
        var bitRate: Int?
        /// The longest run of frames x264 may go without a keyframe of its own accord.
        var maximumKeyframeInterval: Int
        /// The x264 speed preset.
        var preset: String
        /// Display P3 primaries (SMPTE EG 432-1) instead of BT.709, for P3_D65 capture.
        var displayP3 = false
        /// Y'CbCr samples made with the BT.601 matrix (V4L2 cameras), tagged so; BT.709 otherwise.
        var ycbcrBT601 = false
        /// HEVC (libx265) instead of H.264.
        var hevc = false
        /// With `hevc`: Main 10 from 10-bit planar samples (yuv420p10le).
        var tenBit = false
        /// BT.2100 HLG tags: BT.2020 primaries and non-constant-luminance matrix, ARIB
        /// STD-B67 transfer.
        var hlg = false
        /// Tags given outright, replacing the three above's.
        var colorTags: MovieColorTags?
        /// Pixel width over height, nil for square.
        var pixelAspectRatio: (horizontal: Int32, vertical: Int32)?
        /// The encoder's profile name, nil for the default (x264: High; x265: Main).
        var profile: String?
        /// The H.264 level ("4.1"), nil for automatic.
        var level: String?
        /// The x264/x265 tuning ("zerolatency" for live streams: no look-ahead, no frame
        /// threads, so a frame's packet leaves the encoder with the frame), nil for none.
        var tune: String?
    }

    /// Units per second of the timestamps given to `encode` and set on packets.
    static let timeBase = AVRational(num: 1, den: 90_000)
    /// x264's preset. 'veryfast' sustains 1080p30 on two cores with room to spare (see the
    /// measurements in MovieWriter's documentation); 'ultrafast', three times faster again,
    /// drops CABAC, 8x8 transforms and most motion search for about 40% more bits.
    static let defaultPreset = "veryfast"
    /// x265's preset: 'ultrafast' encodes 1080p at about 68 frames/s on two cores here
    /// ('veryfast' 34), so recording 1080p30 keeps real time next to the camera.
    static let hevcPreset = "ultrafast"

    /// Whether this FFmpeg can encode HEVC (Debian's is built with libx265).
    static var canEncodeHEVC: Bool { FFmpegLibraries.available && avcodec_find_encoder_by_name("libx265") != nil }
    /// The bit-rate ceiling of constant-quality movies, in bits per pixel per frame: about
    /// 15.6 Mbit/s at 1080p30, near what phones record 1080p30 H.264 at.
    static let maximumBitsPerPixel = 0.25

    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let width: Int
    private let height: Int
    /// The layout and range the encoder takes; other buffers are converted into `scratch`.
    private let inputFormat: PixelFormat
    private let hevc: Bool
    private var scratch: CVBuffer?

    /// Opens libx264.
    ///
    /// - Parameter globalHeader: put SPS/PPS in the codec parameters (MP4's 'avcC') rather
    ///   than before every keyframe.
    init(settings: Settings, globalHeader: Bool) throws(MovieWriterError) {
        width = settings.width
        height = settings.height
        // libx264 takes NV12 (what the cameras render, so no conversion); libx265 only planar
        // 4:2:0, which 10-bit frames reach from 'x420'/'xf20' by a copy that splits CbCr.
        inputFormat =
            settings.tenBit
            ? (settings.fullRange ? .yuv420TenBitBiPlanarFullRange : .yuv420TenBitBiPlanarVideoRange)
            : settings.hevc
            ? (settings.fullRange ? .yuv420PlanarFullRange : .yuv420PlanarVideoRange)
            : (settings.fullRange ? .yuv420BiPlanarFullRange : .yuv420BiPlanarVideoRange)
        hevc = settings.hevc
        let encoderName = settings.hevc ? "libx265" : "libx264"
        guard let codec = avcodec_find_encoder_by_name(encoderName) else {
            throw .encoder("this FFmpeg has no \(encoderName) encoder")
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc(), let packet = av_packet_alloc()
        else { throw .encoder("out of memory") }
        // Stored before anything can fail, so deinit frees them on every path.
        self.context = context
        self.frame = frame
        self.packet = packet

        Self.configure(context, settings, globalHeader: globalHeader)
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "preset", settings.hevc ? Self.hevcPreset : settings.preset, 0)
        // x265 reports its settings on stderr for every movie unless told not to.
        if settings.hevc { av_dict_set(&options, "x265-params", "log-level=error", 0) }
        // A keyframe we ask for must be an IDR, so the fragment it starts decodes on its own.
        av_dict_set(&options, "forced-idr", "1", 0)
        if settings.bitRate == nil { av_dict_set(&options, "crf", "23", 0) }
        if let profile = settings.profile { av_dict_set(&options, "profile", profile, 0) }
        if let level = settings.level, !settings.hevc { av_dict_set(&options, "level", level, 0) }
        if let tune = settings.tune { av_dict_set(&options, "tune", tune, 0) }
        let opened = avcodec_open2(context, codec, &options)
        guard opened >= 0 else { throw .encoding(opened, "opening \(encoderName)") }
        if av_dict_count(options) > 0 { throw .encoder("\(encoderName) ignored options") }

        frame.pointee.format = Self.pixelFormat(settings).rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        let allocated = av_frame_get_buffer(frame, 0)
        guard allocated >= 0 else { throw .encoding(allocated, "allocating the frame") }
    }

    /// The frames' layout in libavcodec's terms.
    private static func pixelFormat(_ settings: Settings) -> AVPixelFormat {
        settings.tenBit ? AV_PIX_FMT_YUV420P10LE : settings.hevc ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_NV12
    }

    private static func configure(_ context: UnsafeMutablePointer<AVCodecContext>, _ settings: Settings, globalHeader: Bool) {
        context.pointee.width = Int32(settings.width)
        context.pointee.height = Int32(settings.height)
        context.pointee.pix_fmt = pixelFormat(settings)
        context.pointee.time_base = timeBase
        context.pointee.framerate = av_d2q(settings.frameRate, 1_001_000)
        context.pointee.sample_aspect_ratio = settings.pixelAspectRatio.map { AVRational(num: $0.horizontal, den: $0.vertical) }
            ?? AVRational(num: 1, den: 1)
        context.pointee.gop_size = Int32(clamping: max(settings.maximumKeyframeInterval, 1))
        // No B-frames: with them the first frame would be decoded two frames before it is
        // shown, and FFmpeg 5.1's fragmented MP4 (whose 'moov' is written before any sample)
        // cannot carry the edit list that hides that, so the movie would start at 2/30 s
        // instead of 0. Capture encoders do without them anyway; it costs about a tenth
        // more bits for the same quality, and shortens the encoder's delay.
        context.pointee.max_b_frames = 0
        context.pointee.thread_count = 0  // x264 picks 1.5 threads per core
        context.pointee.color_range = settings.fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        context.pointee.colorspace =
            settings.hlg ? AVCOL_SPC_BT2020_NCL : settings.ycbcrBT601 ? AVCOL_SPC_SMPTE170M : AVCOL_SPC_BT709
        context.pointee.color_primaries =
            settings.hlg ? AVCOL_PRI_BT2020 : settings.displayP3 ? AVCOL_PRI_SMPTE432 : AVCOL_PRI_BT709
        context.pointee.color_trc = settings.hlg ? AVCOL_TRC_ARIB_STD_B67 : AVCOL_TRC_BT709
        if let tags = settings.colorTags {
            context.pointee.color_primaries = MovieColorCodes.primaries(tags.primaries)
            context.pointee.color_trc = MovieColorCodes.transfer(tags.transferFunction)
            context.pointee.colorspace = MovieColorCodes.matrix(tags.matrix)
        }
        context.pointee.chroma_sample_location = AVCHROMA_LOC_LEFT
        if let bitRate = settings.bitRate {
            // Average rate, with peaks held to 1.5 times it over a one-second buffer.
            context.pointee.bit_rate = Int64(bitRate)
            context.pointee.rc_max_rate = Int64(bitRate) * 3 / 2
            context.pointee.rc_buffer_size = Int32(clamping: bitRate)
        } else {
            // Constant quality, capped: a noisy picture at CRF 23 can take 80 Mbit/s at
            // 1080p30, and x264 then spends its time writing bits and falls below real time.
            let cap = Int64(maximumBitsPerPixel * Double(settings.width * settings.height) * settings.frameRate)
            context.pointee.rc_max_rate = cap
            context.pointee.rc_buffer_size = Int32(clamping: cap)
        }
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// Fills a stream's codec parameters (size, profile, 'avcC' or 'hvcC' extradata...).
    func copyParameters(to parameters: UnsafeMutablePointer<AVCodecParameters>) throws(MovieWriterError) {
        let copied = avcodec_parameters_from_context(parameters, context)
        guard copied >= 0 else { throw .encoding(copied, "reading the codec parameters") }
        // 'hvc1' (parameter sets in the sample description only), which Apple's players
        // require; FFmpeg's default for HEVC in MP4 is 'hev1'.
        if hevc { parameters.pointee.codec_tag = UInt32(0x31637668) }  // "hvc1", little-endian
    }

    /// Encodes one frame and hands every packet the encoder releases to `emit`, in decode order.
    ///
    /// - Parameters:
    ///   - time: presentation time in `timeBase` units, increasing from frame to frame.
    ///   - keyframe: make this frame an IDR.
    ///   - emit: receives each packet, valid only during the call.
    func encode(
        _ buffer: CVBuffer, time: Int64, keyframe: Bool,
        emit: (UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) -> Void
    ) throws(MovieWriterError) {
        guard let context, let frame else { throw .notWriting }
        // The encoder may still hold a reference to the last frame's pixels; this gives us
        // fresh ones in that case and is free otherwise.
        let writable = av_frame_make_writable(frame)
        guard writable >= 0 else { throw .encoding(writable, "reusing the frame") }
        fill(frame, from: buffer)
        frame.pointee.pts = time
        frame.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        let sent = avcodec_send_frame(context, frame)
        guard sent >= 0 else { throw .encoding(sent, "encoding a frame") }
        try drain(emit)
    }

    /// Encodes the frames the encoder still holds and hands their packets to `emit`.
    func flush(emit: (UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) -> Void) throws(MovieWriterError) {
        guard let context else { throw .notWriting }
        let sent = avcodec_send_frame(context, nil)
        guard sent >= 0 || sent == cffmpeg_eof() else { throw .encoding(sent, "flushing the encoder") }
        try drain(emit)
    }

    private func drain(_ emit: (UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) -> Void) throws(MovieWriterError) {
        guard let context, let packet else { throw .notWriting }
        try drainEncodedPackets(from: context, into: packet, what: "receiving a packet", emit)
    }

    /// Copies the buffer's pixels into the frame, converting to the encoder's layout (NV12 or
    /// planar) and the movie's range first if needed.
    private func fill(_ frame: UnsafeMutablePointer<AVFrame>, from buffer: CVBuffer) {
        var source = buffer
        if buffer.format != inputFormat {
            let converted = scratch ?? CVBuffer(format: inputFormat, width: width, height: height)
            scratch = converted
            _ = ImageTransform.transform(buffer, into: converted, rotation: .none, mirrored: false)
            source = converted
        }
        withExtendedLifetime(source) {
            let chromaWidth = (width + 1) / 2, chromaRows = (height + 1) / 2
            if source.format.isTenBit {
                copyTenBit(source, into: frame, chromaWidth: chromaWidth, chromaRows: chromaRows)
                return
            }
            copyPlane(source, 0, into: frame.pointee.data.0, frame.pointee.linesize.0, rowBytes: width, rows: height)
            if source.format.planeCount == 3 {
                copyPlane(source, 1, into: frame.pointee.data.1, frame.pointee.linesize.1, rowBytes: chromaWidth, rows: chromaRows)
                copyPlane(source, 2, into: frame.pointee.data.2, frame.pointee.linesize.2, rowBytes: chromaWidth, rows: chromaRows)
            } else {
                // Interleaved Cb and Cr.
                copyPlane(source, 1, into: frame.pointee.data.1, frame.pointee.linesize.1, rowBytes: 2 * chromaWidth, rows: chromaRows)
            }
        }
    }

    /// 'x420'/'xf20' (value << 6, CbCr interleaved) → yuv420p10le (value in the low bits,
    /// three planes).
    private func copyTenBit(_ source: CVBuffer, into frame: UnsafeMutablePointer<AVFrame>, chromaWidth: Int, chromaRows: Int) {
        func row(_ data: UnsafeMutablePointer<UInt8>?, _ stride: Int32, _ y: Int) -> UnsafeMutablePointer<UInt16> {
            UnsafeMutableRawPointer(data! + y * Int(stride)).assumingMemoryBound(to: UInt16.self)
        }
        func sourceRow(_ plane: Int, _ y: Int) -> UnsafePointer<UInt16> {
            UnsafePointer((source.planeAddress(plane) + y * source.bytesPerRow(plane)).assumingMemoryBound(to: UInt16.self))
        }
        for y in 0..<height {
            let from = sourceRow(0, y), to = row(frame.pointee.data.0, frame.pointee.linesize.0, y)
            for x in 0..<width { to[x] = from[x] >> 6 }
        }
        for y in 0..<chromaRows {
            let from = sourceRow(1, y)
            let cb = row(frame.pointee.data.1, frame.pointee.linesize.1, y), cr = row(frame.pointee.data.2, frame.pointee.linesize.2, y)
            for x in 0..<chromaWidth {
                cb[x] = from[2 * x] >> 6
                cr[x] = from[2 * x + 1] >> 6
            }
        }
    }

    private func copyPlane(
        _ source: CVBuffer, _ plane: Int, into destination: UnsafeMutablePointer<UInt8>?, _ stride: Int32, rowBytes: Int, rows: Int
    ) {
        av_image_copy_plane(
            destination, stride, source.planeAddress(plane).assumingMemoryBound(to: UInt8.self),
            Int32(source.bytesPerRow(plane)), Int32(rowBytes), Int32(rows))
    }
}
