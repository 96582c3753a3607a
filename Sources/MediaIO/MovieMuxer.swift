import CFFmpeg
import Foundation

/// Writes one H.264 track into an MP4 file with libavformat's mp4 muxer.
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

    /// Creates the file, which must not exist, and prepares the muxer.
    init(url: URL, fragmented: Bool) throws(MovieWriterError) {
        guard url.isFileURL else { throw .cannotOpen("\(url) is not a file URL") }
        path = url.path
        self.fragmented = fragmented
        var context: UnsafeMutablePointer<AVFormatContext>?
        let allocated = avformat_alloc_output_context2(&context, nil, "mp4", nil)
        guard allocated >= 0, let context else { throw .cannotOpen("no mp4 muxer: \(MovieWriterError.message(allocated))") }
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

    /// Adds the video track and writes the header (`ftyp` and, fragmented, the empty `moov`).
    ///
    /// - Parameters:
    ///   - rotationDegrees: clockwise rotation a player applies on display (0, 90, 180 or 270),
    ///     stored as the track's display matrix.
    ///   - describe: fills the track's codec parameters.
    func start(
        rotationDegrees: Int, frameRate: AVRational,
        describe: (UnsafeMutablePointer<AVCodecParameters>) throws(MovieWriterError) -> Void
    ) throws(MovieWriterError) {
        guard let context, let stream = avformat_new_stream(context, nil) else { throw .io("cannot add the video track") }
        try describe(stream.pointee.codecpar)
        stream.pointee.time_base = MovieEncoder.timeBase
        stream.pointee.avg_frame_rate = frameRate
        if rotationDegrees != 0 {
            let size = 9 * MemoryLayout<Int32>.size
            guard let bytes = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, size) else {
                throw .io("out of memory")
            }
            // av_display_rotation_set takes the clockwise angle. FFmpeg reads matrices back
            // as counterclockwise angles (av_display_rotation_get), so ffprobe shows -90.
            bytes.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_set($0, Double(rotationDegrees)) }
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if fragmented {
            // frag_custom: a fragment ends only when we say (cutFragment), at our keyframes.
            // empty_moov: the header is complete before the first sample, so every fragment plays.
            av_dict_set(&options, "movflags", "frag_custom+empty_moov+default_base_moof", 0)
        }
        let written = avformat_write_header(context, &options)
        guard written >= 0 else { throw .writing(written, "writing the header") }
        if av_dict_count(options) > 0 { throw .io("the mp4 muxer ignored the fragmentation flags") }
        try flushToDisk("writing the header")
    }

    /// Adds a packet (timestamps in `MovieEncoder.timeBase`) to the current fragment.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(MovieWriterError) {
        guard let context, let stream = context.pointee.streams[0] else { throw .notWriting }
        packet.pointee.stream_index = 0
        av_packet_rescale_ts(packet, MovieEncoder.timeBase, stream.pointee.time_base)
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
