import CFFmpeg
import CaptureCore
import Foundation

/// Opens a media file with libavformat and describes it: its streams, duration and
/// movie-level tags. `MovieTrackDecoder` then reads one stream's decoded frames: the engine
/// of `AVAsset` and `AVAssetReader`, and of anything else that plays files.
package final class MovieReader: Sendable {
    package let url: URL
    package let tracks: [MovieTrackInfo]
    /// The longest track's end, else the container's duration.
    package let duration: CMTime
    /// Movie-level tags in FFmpeg's names ("title", "creation_time", "location", "make"...).
    package let metadata: [String: String]
    /// The demuxer's short names ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm"...).
    package let formatName: String
    /// The file's chapters in order; empty without any.
    package let chapters: [MovieChapter]

    /// Opens the file, probes its streams and closes it.
    package init(url: URL) throws(MovieReaderError) {
        self.url = url
        let context = try Self.open(url)
        defer {
            var closing: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&closing)
        }
        var tracks: [MovieTrackInfo] = []
        let streamCount = Int(context.pointee.nb_streams)
        for index in 0..<streamCount {
            guard let stream = context.pointee.streams[index] else { continue }
            tracks.append(Self.describe(stream, index: index, context: context))
        }
        self.tracks = tracks
        let containerDuration = context.pointee.duration
        let ends = tracks.map { $0.start + $0.duration }
        if let longest = ends.max(), longest > .zero {
            duration = longest
        } else if containerDuration > 0 {
            duration = CMTime(value: containerDuration, timescale: 1_000_000)
        } else {
            duration = .zero
        }
        var tags: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(context.pointee.metadata, "", entry, AV_DICT_IGNORE_SUFFIX) {
            tags[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
            entry = next
        }
        metadata = tags
        formatName = context.pointee.iformat.map { String(cString: $0.pointee.name) } ?? ""
        chapters = (0..<Int(context.pointee.nb_chapters)).compactMap { index in
            guard let chapter = context.pointee.chapters[index]?.pointee else { return nil }
            func tag(_ key: String) -> String? { av_dict_get(chapter.metadata, key, nil, 0).flatMap { $0.pointee.value.map { String(cString: $0) } } }
            let start = Self.time(chapter.start, chapter.time_base)
            return MovieChapter(start: start, duration: Self.time(chapter.end, chapter.time_base) - start, title: tag("title"), language: tag("language"))
        }
    }

    /// The most pixels a picture read from a file may have: 8192x4320 (DCI 8K), the
    /// largest video picture in use. Decoders refuse larger ones (FFmpeg's `max_pixels`)
    /// before allocating them: a 95 KB MP4 whose H.264 SPS claims 16000x16000 otherwise
    /// takes gigabytes.
    package static let maximumPicturePixels = 8192 * 4320

    /// Opens and probes a file; the caller closes the context with `avformat_close_input`.
    static func open(_ url: URL) throws(MovieReaderError) -> UnsafeMutablePointer<AVFormatContext> {
        guard url.isFileURL else { throw .cannotOpen("not a file URL: \(url)") }
        do { try FFmpegLibraries.load() } catch { throw .cannotOpen(error.description) }
        // An image sequence is named by a pattern ("frame-%03d.png"), not by a file.
        let pattern = url.path.contains("%") && !FileManager.default.fileExists(atPath: url.path)
        guard pattern || FileManager.default.isReadableFile(atPath: url.path) else { throw .cannotOpen("\(url.path): no readable file") }
        // Only regular files: opening a FIFO blocks until a writer comes, and a device never ends.
        var status = stat()
        if !pattern, stat(url.path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw .cannotOpen("\(url.path): not a regular file")
        }
        var context: UnsafeMutablePointer<AVFormatContext>?
        let opened = avformat_open_input(&context, url.path, nil, nil)
        guard opened == 0, let context else {
            // Tell a file no demuxer claims from one a demuxer claims and cannot parse.
            if opened == cffmpeg_invaliddata() && !Self.recognized(url) {
                throw .notRecognized(url.lastPathComponent)
            }
            throw .cannotParse("\(url.lastPathComponent): \(MovieWriterError.message(opened))")
        }
        let probed = findStreamInfo(context)
        if probed < 0 {
            var closing: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&closing)
            throw .cannotParse("\(url.lastPathComponent): \(MovieWriterError.message(probed))")
        }
        return context
    }

    /// `avformat_find_stream_info` with every probing decoder held to
    /// `maximumPicturePixels` (probing decodes frames too).
    private static func findStreamInfo(_ context: UnsafeMutablePointer<AVFormatContext>) -> Int32 {
        let count = Int(context.pointee.nb_streams)
        var options = [OpaquePointer?](repeating: nil, count: max(count, 1))
        for index in 0..<count { av_dict_set(&options[index], "max_pixels", String(maximumPicturePixels), 0) }
        defer { for index in 0..<count { av_dict_free(&options[index]) } }
        return options.withUnsafeMutableBufferPointer { avformat_find_stream_info(context, $0.baseAddress) }
    }

    /// Whether a demuxer claims the file's first bytes.
    private static func recognized(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        var bytes = [UInt8](handle.readData(ofLength: 4096))
        let size = bytes.count
        // The probe reads up to AVPROBE_PADDING_SIZE bytes past the data: zeros.
        bytes.append(contentsOf: [UInt8](repeating: 0, count: Int(AVPROBE_PADDING_SIZE)))
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var probe = AVProbeData()
            probe.buf = buffer.baseAddress
            probe.buf_size = Int32(size)
            // No file name: demuxers would claim the file for its extension alone.
            return "".withCString { name in
                probe.filename = name
                return av_probe_input_format(&probe, 1) != nil
            }
        }
    }

    private static func describe(
        _ stream: UnsafeMutablePointer<AVStream>, index: Int, context: UnsafeMutablePointer<AVFormatContext>
    ) -> MovieTrackInfo {
        let parameters = stream.pointee.codecpar.pointee
        let kind: MovieTrackInfo.Kind =
            parameters.codec_type == AVMEDIA_TYPE_VIDEO ? .video : parameters.codec_type == AVMEDIA_TYPE_AUDIO ? .audio : .other
        let id = stream.pointee.id
        var track = MovieTrackInfo(
            index: index, trackID: id > 0 ? id : Int32(index + 1), kind: kind, codecName: String(cString: avcodec_get_name(parameters.codec_id)))
        track.decodable = avcodec_find_decoder(parameters.codec_id) != nil
        let base = stream.pointee.time_base
        track.timeScale = base.num == 1 ? base.den : 1_000_000
        let start = stream.pointee.start_time
        if start != Int64.min { track.start = time(start, base) }
        if stream.pointee.duration != Int64.min && stream.pointee.duration > 0 {
            track.duration = time(stream.pointee.duration, base)
        } else if context.pointee.duration > 0 {
            track.duration = CMTime(value: context.pointee.duration, timescale: 1_000_000)
        }
        if let entry = av_dict_get(stream.pointee.metadata, "language", nil, 0), let value = entry.pointee.value {
            track.language = String(cString: value)
        }
        if kind == .video {
            track.reordersFrames = parameters.video_delay > 0
            track.width = Int(parameters.width)
            track.height = Int(parameters.height)
            let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
            track.frameRate = rate.den > 0 ? Double(rate.num) / Double(rate.den) : 0
            track.fullRange =
                parameters.color_range == AVCOL_RANGE_JPEG || parameters.format == AV_PIX_FMT_YUVJ420P.rawValue
                || parameters.format == AV_PIX_FMT_YUVJ422P.rawValue || parameters.format == AV_PIX_FMT_YUVJ444P.rawValue
            var size = 0
            if let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 {
                // FFmpeg's angle is counterclockwise; the track's rotation is clockwise.
                let angle = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
                if angle.isFinite { track.rotationDegrees = ((Int((-angle).rounded()) % 360) + 360) % 360 }
            }
        } else if kind == .audio {
            track.sampleRate = Int(parameters.sample_rate)
            track.channels = Int(parameters.ch_layout.nb_channels)
        }
        if parameters.bit_rate > 0 {
            track.bitRate = Int(parameters.bit_rate)
        } else if kind == .video, context.pointee.bit_rate > 0 {
            track.bitRate = Int(context.pointee.bit_rate)
        }
        return track
    }

    /// A time in `base` units (`value * num / den` seconds) as a CMTime.
    static func time(_ value: Int64, _ base: AVRational) -> CMTime {
        base.num == 1 ? CMTime(value: value, timescale: base.den) : CMTime(value: av_rescale_q(value, base, AVRational(num: 1, den: 1_000_000)), timescale: 1_000_000)
    }
}
