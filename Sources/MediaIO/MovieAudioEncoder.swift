import CFFmpeg

/// Turns planar float samples into the audio track's packets: AAC-LC through FFmpeg's
/// native encoder (1024 samples a packet, the encoder's own priming of 1024 samples before
/// them), or linear PCM written as it comes (one packet per append, no encoder at all).
///
/// Times are sample counts from the movie's origin (time base 1 / sample rate).
/// Not thread-safe: one thread at a time, as `MovieWriter` calls it.
final class MovieAudioEncoder {
    let settings: MovieAudioSettings
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// AAC's samples per packet.
    private var frameSize = 1024
    /// Samples waiting for a whole AAC frame, per channel.
    private var pending: [[Float]]
    /// The time of the first pending sample.
    private var pendingTime: Int64 = 0
    /// Whether `flush` drained the encoder.
    private var flushed = false

    /// The encoder's priming: its first packet, `primingSamples` before the first sample it
    /// was given, decodes to silence (AAC's 1024; 0 for linear PCM).
    var primingSamples: Int { Int(context?.pointee.initial_padding ?? 0) }

    init(settings: MovieAudioSettings) throws(MovieWriterError) {
        self.settings = settings
        pending = Array(repeating: [], count: settings.channels)
        guard settings.sampleRate > 0, settings.channels > 0, settings.channels <= 8 else {
            throw .invalidSettings("audio \(settings.sampleRate) Hz, \(settings.channels) channels")
        }
        guard let packet = av_packet_alloc() else { throw .encoder("out of memory") }
        self.packet = packet
        guard case .aac(let bitRate) = settings.codec else {
            if case .linearPCM(let depth, let isFloat, _) = settings.codec,
                !(isFloat ? depth == 32 : [16, 24, 32].contains(depth))
            {
                throw .invalidSettings("linear PCM of \(depth) bits\(isFloat ? " float" : "")")
            }
            return
        }
        guard let codec = avcodec_find_encoder_by_name("aac") else { throw .encoder("this FFmpeg has no aac encoder") }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc() else { throw .encoder("out of memory") }
        self.context = context
        self.frame = frame
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(settings.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(settings.channels))
        context.pointee.bit_rate = Int64(bitRate)
        if let quality = settings.variableQuality {
            // FFmpeg's aac is variable-rate at a quality (its -q:a) with QSCALE set.
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.global_quality = Int32((quality * Double(FF_QP2LAMBDA)).rounded())
            context.pointee.bit_rate = 0
        }
        context.pointee.time_base = AVRational(num: 1, den: Int32(settings.sampleRate))
        // The AudioSpecificConfig goes in the sample description ('esds'), as MP4 wants.
        context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        var options: OpaquePointer?
        if settings.fastAACCoder { av_dict_set(&options, "aac_coder", "fast", 0) }
        let opened = avcodec_open2(context, codec, &options)
        av_dict_free(&options)
        guard opened >= 0 else { throw .encoding(opened, "opening the aac encoder") }
        frameSize = Int(context.pointee.frame_size)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.nb_samples = Int32(frameSize)
        let copied = av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout)
        guard copied >= 0 else { throw .encoding(copied, "setting the channel layout") }
        let allocated = av_frame_get_buffer(frame, 0)
        guard allocated >= 0 else { throw .encoding(allocated, "allocating the audio frame") }
    }

    deinit {
        // A writer that failed never flushed: drain the encoder quietly first, or FFmpeg's aac
        // encoder warns on stderr about the frames left in its queue.
        if !flushed, let context, let packet {
            if avcodec_send_frame(context, nil) >= 0 {
                while avcodec_receive_packet(context, packet) >= 0 { av_packet_unref(packet) }
            }
        }
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// Fills a stream's codec parameters.
    func copyParameters(to parameters: UnsafeMutablePointer<AVCodecParameters>) throws(MovieWriterError) {
        if let context {
            let copied = avcodec_parameters_from_context(parameters, context)
            guard copied >= 0 else { throw .encoding(copied, "reading the audio codec parameters") }
            return
        }
        guard case .linearPCM(let depth, let isFloat, let bigEndian) = settings.codec else { return }
        parameters.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        parameters.pointee.codec_id = Self.pcmCodec(depth: depth, isFloat: isFloat, bigEndian: bigEndian)
        parameters.pointee.sample_rate = Int32(settings.sampleRate)
        av_channel_layout_default(&parameters.pointee.ch_layout, Int32(settings.channels))
        parameters.pointee.bits_per_coded_sample = Int32(depth)
        parameters.pointee.block_align = Int32(depth / 8 * settings.channels)
        parameters.pointee.bit_rate = Int64(depth * settings.channels * settings.sampleRate)
    }

    private static func pcmCodec(depth: Int, isFloat: Bool, bigEndian: Bool) -> AVCodecID {
        switch (depth, isFloat, bigEndian) {
        case (32, true, false): AV_CODEC_ID_PCM_F32LE
        case (32, true, true): AV_CODEC_ID_PCM_F32BE
        case (16, false, false): AV_CODEC_ID_PCM_S16LE
        case (16, false, true): AV_CODEC_ID_PCM_S16BE
        case (24, false, false): AV_CODEC_ID_PCM_S24LE
        case (24, false, true): AV_CODEC_ID_PCM_S24BE
        case (32, false, true): AV_CODEC_ID_PCM_S32BE
        default: AV_CODEC_ID_PCM_S32LE
        }
    }

    /// Encodes `count` samples per channel starting at `time`, handing each packet to `emit`.
    func encode(
        _ channels: [[Float]], count: Int, time: Int64, emit: (UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) -> Void
    ) throws(MovieWriterError) {
        guard count > 0 else { return }
        guard context != nil else {
            try emitPCM(channels, count: count, time: time, emit: emit)
            return
        }
        if pending[0].isEmpty { pendingTime = time }
        for channel in 0..<settings.channels { pending[channel] += channels[channel].prefix(count) }
        while pending[0].count >= frameSize { try sendFrame(samples: frameSize, emit: emit) }
    }

    /// Encodes what is pending (a short last frame) and drains the encoder.
    func flush(emit: (UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) -> Void) throws(MovieWriterError) {
        guard let context else { return }
        if !pending[0].isEmpty { try sendFrame(samples: pending[0].count, emit: emit) }
        flushed = true
        let sent = avcodec_send_frame(context, nil)
        guard sent >= 0 || sent == cffmpeg_eof() else { throw .encoding(sent, "flushing the audio encoder") }
        try drain(emit)
    }

    private func sendFrame(samples: Int, emit: (UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) -> Void) throws(MovieWriterError) {
        guard let context, let frame else { throw .notWriting }
        let writable = av_frame_make_writable(frame)
        guard writable >= 0 else { throw .encoding(writable, "reusing the audio frame") }
        frame.pointee.nb_samples = Int32(samples)
        frame.pointee.pts = pendingTime
        for channel in 0..<settings.channels {
            guard let plane = frame.pointee.extended_data[channel] else { throw .encoder("audio frame without plane \(channel)") }
            let target = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
            pending[channel].withUnsafeBufferPointer { target.update(from: $0.baseAddress!, count: samples) }
            pending[channel].removeFirst(samples)
        }
        pendingTime += Int64(samples)
        let sent = avcodec_send_frame(context, frame)
        guard sent >= 0 else { throw .encoding(sent, "encoding audio") }
        try drain(emit)
    }

    private func drain(_ emit: (UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) -> Void) throws(MovieWriterError) {
        guard let context, let packet else { throw .notWriting }
        try drainEncodedPackets(from: context, into: packet, what: "receiving an audio packet", emit)
    }

    /// One packet of interleaved samples in the track's format.
    private func emitPCM(
        _ channels: [[Float]], count: Int, time: Int64, emit: (UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) -> Void
    ) throws(MovieWriterError) {
        guard let packet, case .linearPCM(let depth, let isFloat, let bigEndian) = settings.codec else { throw .notWriting }
        let bytes = depth / 8, frameBytes = bytes * settings.channels
        let made = av_new_packet(packet, Int32(count * frameBytes))
        guard made >= 0 else { throw .encoding(made, "allocating an audio packet") }
        defer { av_packet_unref(packet) }
        let data = UnsafeMutableRawPointer(packet.pointee.data!)
        for index in 0..<count {
            for channel in 0..<settings.channels {
                let value = channels[channel][index]
                let bits: UInt32 =
                    isFloat
                    ? value.bitPattern
                    : UInt32(bitPattern: Int32(clamping: Int64((Double(max(-1, min(1, value))) * 2_147_483_648).rounded())))
                // Integer samples keep their top `depth` bits.
                let word = isFloat ? bits : bits >> UInt32(32 - depth)
                let target = data + index * frameBytes + channel * bytes
                for byte in 0..<bytes {
                    let shift = bigEndian ? (bytes - 1 - byte) * 8 : byte * 8
                    target.storeBytes(of: UInt8(truncatingIfNeeded: word >> UInt32(shift)), toByteOffset: byte, as: UInt8.self)
                }
            }
        }
        packet.pointee.pts = time
        packet.pointee.dts = time
        packet.pointee.duration = Int64(count)
        packet.pointee.flags |= AV_PKT_FLAG_KEY
        try emit(packet)
    }
}
