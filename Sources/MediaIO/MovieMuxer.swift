import CFFmpeg
import Foundation

/// Writes a video track (H.264 or HEVC) and an audio track (AAC or linear PCM), either or
/// both, into an MP4, QuickTime or M4A file with libavformat's mov muxer.
///
/// Fragmented (the default for `MovieWriter`), the file is `ftyp`, an empty `moov` that only
/// describes the track, then a `moof`+`mdat` pair per fragment, and at `finish` an `mfra`
/// index. The muxer keeps a fragment's samples in memory until `cutFragment`, which writes
/// them and pushes them to the kernel (`avio_flush`): from then on they survive the process
/// being killed. They are not fsynced, so a power cut may still lose the last ones.
/// Unfragmented, samples go straight to one `mdat` and the `moov` comes at `finish`, so an
/// unfinished file does not play.
///
/// Not thread-safe: one thread at a time.
final class MovieMuxer {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let path: String
    let fragmented: Bool
    /// Fragments written to the file so far.
    private(set) var fragmentCount = 0
    /// Bytes of packets waiting in the muxer for the current fragment to be cut.
    private var pendingBytes: Int64 = 0
    /// The file's size once closed.
    private var closedSize: Int64?
    /// The time base of each track's packets, by stream index.
    private var timeBases: [AVRational] = []

    /// Creates the file, which must not exist, and prepares the muxer.
    ///
    /// - Parameter format: libavformat's muxer: "mp4", "mov" (QuickTime) or "ipod" (M4A).
    init(url: URL, format: String = "mp4", fragmented: Bool) throws(MovieWriterError) {
        guard url.isFileURL else { throw .cannotOpen("\(url) is not a file URL") }
        path = url.path
        self.fragmented = fragmented
        var context: UnsafeMutablePointer<AVFormatContext>?
        // The path becomes the context's url (the M4A muxer checks its extension, else warns).
        let allocated = avformat_alloc_output_context2(&context, nil, format, path)
        guard allocated >= 0, let context else { throw .cannotOpen("no \(format) muxer: \(MovieWriterError.message(allocated))") }
        self.context = context
        // O_EXCL makes "refuse an existing file" atomic; FFmpeg's own open would truncate it.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .system(errno, opening: path) }
        close(descriptor)
        // The "file:" prefix keeps a colon in the path from being read as a protocol name.
        let opened = avio_open(&context.pointee.pb, "file:" + path, AVIO_FLAG_WRITE)
        guard opened >= 0 else {
            unlink(path)
            throw .cannotOpen("\(path): \(MovieWriterError.message(opened))")
        }
    }

    deinit { release(keepingFile: true) }

    /// Adds the video track (stream 0 when it is added first).
    ///
    /// - Parameters:
    ///   - displayMatrix: the track matrix players apply on display, nine values as in
    ///     QuickTime's 'tkhd' (16.16 fixed point, the last column 2.30), or nil for identity.
    ///   - describe: fills the track's codec parameters.
    /// - Returns: the stream's index.
    @discardableResult
    func addVideoTrack(
        displayMatrix: [Int32]?, frameRate: AVRational, timeScale: Int32? = nil,
        describe: (UnsafeMutablePointer<AVCodecParameters>) throws(MovieWriterError) -> Void
    ) throws(MovieWriterError) -> Int {
        guard let context, let stream = avformat_new_stream(context, nil) else { throw .io("cannot add the video track") }
        try describe(stream.pointee.codecpar)
        stream.pointee.time_base = timeScale.map { AVRational(num: 1, den: $0) } ?? MovieEncoder.timeBase
        stream.pointee.avg_frame_rate = frameRate
        if let displayMatrix, displayMatrix != MovieMuxer.identityMatrix {
            let size = 9 * MemoryLayout<Int32>.size
            guard let bytes = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, size) else {
                throw .io("out of memory")
            }
            bytes.withMemoryRebound(to: Int32.self, capacity: 9) { matrix in
                for index in 0..<9 { matrix[index] = displayMatrix[index] }
            }
        }
        timeBases.append(MovieEncoder.timeBase)
        return Int(stream.pointee.index)
    }

    /// Adds an audio track whose packets are timed in 1 / `sampleRate` units.
    @discardableResult
    func addAudioTrack(
        sampleRate: Int32, describe: (UnsafeMutablePointer<AVCodecParameters>) throws(MovieWriterError) -> Void
    ) throws(MovieWriterError) -> Int {
        guard let context, let stream = avformat_new_stream(context, nil) else { throw .io("cannot add the audio track") }
        try describe(stream.pointee.codecpar)
        let timeBase = AVRational(num: 1, den: sampleRate)
        stream.pointee.time_base = timeBase
        timeBases.append(timeBase)
        return Int(stream.pointee.index)
    }

    /// Adds a binary-data track timed in 1/90000 s (AV_CODEC_ID_BIN_DATA, which the mov
    /// muxer writes with a 'meta' handler): the carrier of a timed-metadata track, whose
    /// sample description `MetadataTrackRewrite` replaces.
    @discardableResult
    func addDataTrack() throws(MovieWriterError) -> Int {
        guard let context, let stream = avformat_new_stream(context, nil) else { throw .io("cannot add a metadata track") }
        stream.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_DATA
        stream.pointee.codecpar.pointee.codec_id = AV_CODEC_ID_BIN_DATA
        // The mov muxer finds no tag for it by itself (the mp4 one does): GoPro's 'gpmd'.
        stream.pointee.codecpar.pointee.codec_tag = 0x646D_7067
        stream.pointee.time_base = MovieEncoder.timeBase
        timeBases.append(MovieEncoder.timeBase)
        return Int(stream.pointee.index)
    }

    /// Rewrites the header already in the file (fragmented: 'ftyp' and the empty 'moov')
    /// with `rewrite` applied to the 'moov', before any fragment; the muxer goes on after it.
    func rewriteHeaderMoov(_ rewrite: (Data) -> Data) throws(MovieWriterError) {
        guard let pb = context?.pointee.pb else { throw .notWriting }
        avio_flush(pb)
        let end = avio_tell(pb)
        guard let handle = FileHandle(forUpdatingAtPath: path) else { throw .io("cannot reopen \(path)") }
        defer { try? handle.close() }
        guard let (offset, size, _) = MetadataTrackRewrite.findTopLevel("moov", in: handle), offset + size == UInt64(end),
            (try? handle.seek(toOffset: offset)) != nil, let old = try? handle.read(upToCount: Int(size))
        else { throw .io("the header of \(path) has no moov at its end") }
        let new = rewrite(old)
        guard (try? handle.seek(toOffset: offset)) != nil, (try? handle.write(contentsOf: new)) != nil else {
            throw .io("cannot rewrite the header of \(path)")
        }
        // Fragments are placed from the muxer's position, which moves past the new moov.
        let moved = avio_seek(pb, Int64(offset) + Int64(new.count), SEEK_SET)
        guard moved >= 0 else { throw .writing(Int32(truncatingIfNeeded: moved), "rewriting the header") }
    }

    /// Adds a track whose packets are copied from another file's stream, unchanged: its
    /// codec parameters, time base, frame rate and display matrix (export passthrough).
    /// Packets given to `write` are then in `source`'s time base.
    /// - Returns: the stream's index.
    @discardableResult
    func addCopiedTrack(from source: UnsafeMutablePointer<AVStream>) throws(MovieWriterError) -> Int {
        guard let context, let stream = avformat_new_stream(context, nil) else { throw .io("cannot add a track") }
        guard avcodec_parameters_copy(stream.pointee.codecpar, source.pointee.codecpar) >= 0 else { throw .io("out of memory") }
        // Keep the source's tag ('hvc1', 'avc1') when this muxer knows it for the codec, else
        // let the muxer choose (a tag from another container would be refused).
        let tag = stream.pointee.codecpar.pointee.codec_tag
        if tag != 0, let tags = context.pointee.oformat.pointee.codec_tag, av_codec_get_id(tags, tag) != stream.pointee.codecpar.pointee.codec_id {
            stream.pointee.codecpar.pointee.codec_tag = 0
        }
        stream.pointee.time_base = source.pointee.time_base
        stream.pointee.avg_frame_rate = source.pointee.avg_frame_rate
        var size = 0
        if let matrix = av_stream_get_side_data(source, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36,
            let bytes = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, size)
        {
            bytes.update(from: matrix, count: size)
        }
        timeBases.append(source.pointee.time_base)
        return Int(stream.pointee.index)
    }

    /// The identity track matrix.
    static let identityMatrix: [Int32] = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000]

    /// The track matrix that turns the picture `degrees` clockwise (0, 90, 180 or 270).
    static func rotationMatrix(degrees: Int) -> [Int32] {
        var matrix = [Int32](repeating: 0, count: 9)
        // av_display_rotation_set takes the clockwise angle. FFmpeg reads matrices back as
        // counterclockwise angles (av_display_rotation_get), so ffprobe shows -90 for 90.
        matrix.withUnsafeMutableBufferPointer { av_display_rotation_set($0.baseAddress!, Double(degrees)) }
        return matrix
    }

    /// Writes the header (`ftyp` and, fragmented, the empty `moov`) once the tracks are added.
    ///
    /// - Parameters:
    ///   - metadata: movie-level tags in FFmpeg's names (title, creation_time, location,
    ///     make, model, encoder...), written to the 'mvhd' and 'udta' as the muxer maps them.
    ///   - firstFragmentNumber: the sequence number of the first 'moof' (fragmented only).
    ///   - fastStart: unfragmented, move the 'moov' before the 'mdat' at `finish`.
    ///   - movieTimeScale: the 'mvhd' time scale, nil for the muxer's default.
    ///   - metadataKeys: write the tags as QuickTime 'mdta' keys (use_metadata_tags), in
    ///     fragmented files too (the keys go in the empty 'moov'). The mp4 muxer writes
    ///     make and model only this way; title and location keep their 'udta' forms too.
    func writeHeader(
        metadata: [(String, String)] = [], firstFragmentNumber: Int = 1, fastStart: Bool = false, movieTimeScale: Int32? = nil,
        metadataKeys: Bool = false
    ) throws(MovieWriterError) {
        guard let context else { throw .notWriting }
        for (key, value) in metadata { av_dict_set(&context.pointee.metadata, key, value, 0) }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if fragmented {
            // frag_custom: a fragment ends only when we say (cutFragment), at our keyframes.
            // empty_moov: the header is complete before the first sample, so every fragment plays.
            let keys = metadataKeys ? "+use_metadata_tags" : ""
            av_dict_set(&options, "movflags", "frag_custom+empty_moov+default_base_moof" + keys, 0)
            if firstFragmentNumber != 1 { av_dict_set(&options, "fragment_index", String(firstFragmentNumber), 0) }
            // Times as given: by default the muxer shifts every track by the first packet it is
            // handed, so the tracks' offset would depend on which encoder spoke first. The
            // writer gives no negative times (see MovieWriter: AAC's priming), so no shift is needed.
            av_dict_set(&options, "use_editlist", "0", 0)
            context.pointee.avoid_negative_ts = AVFMT_AVOID_NEG_TS_DISABLED
        } else if fastStart || metadataKeys {
            let flags = [fastStart ? "faststart" : nil, metadataKeys ? "use_metadata_tags" : nil].compactMap { $0 }
            av_dict_set(&options, "movflags", flags.joined(separator: "+"), 0)
        }
        if let movieTimeScale { av_dict_set(&options, "movie_timescale", String(movieTimeScale), 0) }
        let written = avformat_write_header(context, &options)
        guard written >= 0 else { throw .writing(written, "writing the header") }
        if av_dict_count(options) > 0 { throw .io("the muxer ignored the movie flags") }
        try flushToDisk("writing the header")
    }

    /// Adds a packet of a track (timestamps in the track's time base: `MovieEncoder.timeBase`
    /// for video, 1 / sample rate for audio) to the current fragment. Each track's packets
    /// must come in decode order; tracks may interleave freely.
    func write(_ packet: UnsafeMutablePointer<AVPacket>, track: Int = 0) throws(MovieWriterError) {
        guard let context, track < timeBases.count, let stream = context.pointee.streams[track] else { throw .notWriting }
        packet.pointee.stream_index = Int32(track)
        av_packet_rescale_ts(packet, timeBases[track], stream.pointee.time_base)
        let size = Int64(packet.pointee.size)
        let written = av_write_frame(context, packet)
        guard written >= 0 else { throw .writing(written, "writing a frame") }
        if fragmented { pendingBytes += size }
    }

    /// Writes the current fragment to the file and hands it to the kernel.
    func cutFragment() throws(MovieWriterError) {
        guard let context else { throw .notWriting }
        guard pendingBytes > 0 else { return }
        let written = av_write_frame(context, nil)
        guard written >= 0 else { throw .writing(written, "writing a fragment") }
        try flushToDisk("writing a fragment")
        fragmentCount += 1
        pendingBytes = 0
    }

    /// Writes the last fragment and the trailer (`mfra` index, or the `moov` when not
    /// fragmented) and closes the file.
    func finish() throws(MovieWriterError) {
        guard let context else { throw .notWriting }
        let written = av_write_trailer(context)
        guard written >= 0 else { throw .writing(written, "writing the trailer") }
        try flushToDisk("writing the trailer")
        if pendingBytes > 0 { fragmentCount += 1 }
        pendingBytes = 0
        let closed = avio_closep(&context.pointee.pb)
        guard closed >= 0 else { throw .writing(closed, "closing the file") }
        release(keepingFile: true)
    }

    /// Frees the muxer without writing more. The file keeps what reached it, as after a
    /// crash; `keepingFile: false` deletes it (for a writer that failed to start).
    func release(keepingFile: Bool) {
        guard let context else { return }
        if context.pointee.pb != nil {
            avio_flush(context.pointee.pb)
            avio_closep(&context.pointee.pb)
        }
        avformat_free_context(context)
        self.context = nil
        var status = stat()
        closedSize = stat(path, &status) == 0 ? Int64(status.st_size) : 0
        if !keepingFile { unlink(path) }
    }

    /// Bytes recorded so far: those in the file plus the current fragment's samples, which
    /// reach the file when it is cut. Exactly the file's size once closed.
    var recordedSize: Int64 {
        if let closedSize { return closedSize }
        guard let pb = context?.pointee.pb else { return 0 }
        return avio_tell(pb) + pendingBytes
    }

    private func flushToDisk(_ action: String) throws(MovieWriterError) {
        guard let pb = context?.pointee.pb else { throw .notWriting }
        avio_flush(pb)
        if pb.pointee.error < 0 { throw .writing(pb.pointee.error, action) }
    }
}
