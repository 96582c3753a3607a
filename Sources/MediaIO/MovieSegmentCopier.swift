import CFFmpeg
import CaptureCore
import Foundation

/// Joins the segments of edited tracks into a new file by copying their packets, without
/// decoding or encoding: export passthrough, and any export whose codecs match the
/// sources'. Demuxing is libavformat's (as `MovieReader`'s), muxing `MovieMuxer` (the
/// movie writer's).
///
/// Each output track takes the codec parameters, time base and display matrix of its first
/// segment's stream; every segment of a track must have the same codec, format and
/// decoder configuration (`check`), as one sample description is written per track. A
/// segment is copied from the keyframe at or before its source start (packets cannot be
/// cut between keyframes without re-encoding, and FFmpeg's muxer writes no edit list to
/// hide the frames before it), and up to the first frame at its source end. Tracks are
/// interleaved by decode time. Empty segments leave a gap: the frame before lasts through it.
///
/// Not thread-safe: `copy` runs on the caller's thread.
package enum MovieSegmentCopier {
    /// Throws `.incompatible` unless every track can be copied into `container`.
    package static func check(_ tracks: [MovieEditTrack], container: MovieContainer) throws(MovieExportError) {
        let media = tracks.filter { !$0.media.isEmpty }
        guard !media.isEmpty else { throw .incompatible("no media to export") }
        try MovieEditTrack.checkUnscaledAudio(tracks)
        for track in media {
            let segments = track.media
            let first = try open(segments[0])
            let codec = String(cString: avcodec_get_name(first.parameters.codec_id))
            guard takes(container, codec: codec, kind: track.kind) else {
                throw .incompatible("\(codec) cannot be copied into \(container.muxerName) files")
            }
            for segment in segments.dropFirst() {
                if let reason = first.matches(try open(segment)) { throw .incompatible(reason) }
            }
        }
    }

    /// Writes the tracks to a new file at `url` (which must not exist).
    ///
    /// - Parameters:
    ///   - fastStart: put the 'moov' before the media.
    ///   - metadata: movie-level tags in FFmpeg's names.
    ///   - fileLengthLimit: stop before the file grows past this many bytes (nil: no limit).
    ///   - progress: called after each packet with the fraction of the output written.
    ///   - isCancelled: polled between packets; true stops, deletes the file and throws `.cancelled`.
    package static func copy(
        _ tracks: [MovieEditTrack], to url: URL, container: MovieContainer, fastStart: Bool, metadata: [(String, String)],
        fileLengthLimit: Int64? = nil, progress: (Double) -> Void, isCancelled: () -> Bool
    ) throws(MovieExportError) {
        do { try FFmpegLibraries.load() } catch { throw .writer(error) }
        try check(tracks, container: container)
        let muxer: MovieMuxer
        do { muxer = try MovieMuxer(url: url, format: container.muxerName, fragmented: false) } catch { throw .writer(error) }
        var finished = false
        defer { if !finished { muxer.release(keepingFile: false) } }
        var sources: [SegmentPackets] = []
        for track in tracks where !track.media.isEmpty {
            let first = try open(track.media[0])
            let index: Int
            do { index = try muxer.addCopiedTrack(from: first.stream) } catch { throw .writer(error) }
            sources.append(SegmentPackets(track: track, output: index, timeBase: first.timeBase))
        }
        do { try muxer.writeHeader(metadata: metadata, fastStart: fastStart) } catch { throw .writer(error) }
        let total = max(tracks.map { $0.end.seconds }.max() ?? 0, 0.001)
        // Interleave: write the pending packet that decodes first, of any track.
        while true {
            if isCancelled() { throw .cancelled }
            for source in sources where !source.hasPacket { try source.fetch() }
            guard let next = sources.filter(\.hasPacket).min(by: { $0.decodeSeconds < $1.decodeSeconds }) else { break }
            if let fileLengthLimit, muxer.recordedSize + Int64(next.packet.pointee.size) > fileLengthLimit { break }
            do { try muxer.write(next.packet, track: next.output) } catch { throw .writer(error) }
            progress(min(max(next.decodeSeconds / total, 0), 1))
            next.consume()
        }
        do { try muxer.finish() } catch { throw .writer(error) }
        finished = true
        progress(1)
    }

    private static func open(_ segment: MovieEditSegment) throws(MovieExportError) -> MovieSourceStream {
        guard let url = segment.url, let track = segment.track else { throw .incompatible("an empty segment has no media") }
        do { return try MovieSourceStream(url: url, track: track) } catch { throw .reader(error) }
    }

    /// Codecs each container takes, by FFmpeg's names.
    static func takes(_ container: MovieContainer, codec: String, kind: MovieTrackInfo.Kind) -> Bool {
        let mpeg4 = ["h264", "hevc", "mpeg4", "av1", "vp9", "aac", "mp3", "alac", "ac3", "eac3", "opus", "flac"]
        switch container {
        case .m4a: return kind == .audio && ["aac", "alac"].contains(codec)
        case .mpeg4: return mpeg4.contains(codec)
        case .quickTime: return mpeg4.contains(codec) || codec.hasPrefix("pcm_") || ["mjpeg", "prores", "rawvideo"].contains(codec)
        }
    }
}

/// The packets of one output track, segment after segment, timed on the output's clock
/// (the first segment's time base).
private final class SegmentPackets {
    let track: MovieEditTrack
    let output: Int
    let timeBase: AVRational
    let packet: UnsafeMutablePointer<AVPacket>
    private(set) var hasPacket = false
    private var segmentIndex = 0
    private var source: MovieSourceStream?
    /// The source time that plays at the segment's target start, in source units.
    private var anchor: Int64?
    private var lastDecodeTime = Int64.min

    init(track: MovieEditTrack, output: Int, timeBase: AVRational) {
        self.track = track.media.isEmpty ? track : MovieEditTrack(kind: track.kind, segments: track.media)
        self.output = output
        self.timeBase = timeBase
        packet = av_packet_alloc()
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&freeing)
    }

    var decodeSeconds: Double {
        let time = packet.pointee.dts != Int64.min ? packet.pointee.dts : packet.pointee.pts
        return Double(time) * Double(timeBase.num) / Double(timeBase.den)
    }

    func consume() {
        av_packet_unref(packet)
        hasPacket = false
    }

    /// Reads the next packet of the track into `packet`, if there is one.
    func fetch() throws(MovieExportError) {
        while segmentIndex < track.segments.count {
            let segment = track.segments[segmentIndex]
            if source == nil {
                guard let url = segment.url, let info = segment.track else {
                    segmentIndex += 1
                    continue
                }
                let opened: MovieSourceStream
                do { opened = try MovieSourceStream(url: url, track: info) } catch { throw .reader(error) }
                let start = opened.ticks(segment.source.start)
                if segment.source.start > info.start { opened.seek(toKeyframeAtOrBefore: start) }
                source = opened
                anchor = nil
            }
            guard let source else { continue }
            let read: Bool
            do { read = try source.read(into: packet) } catch { throw .reader(error) }
            guard read else {
                nextSegment()
                continue
            }
            let end = segment.source.duration.isNumeric ? source.ticks(segment.source.start + segment.source.duration) : Int64.max
            let pts = packet.pointee.pts != Int64.min ? packet.pointee.pts : packet.pointee.dts
            if pts >= end {
                // Past the end: later packets in decode order may still show before it.
                let dts = packet.pointee.dts
                av_packet_unref(packet)
                if dts == Int64.min || dts >= end { nextSegment() }
                continue
            }
            let start = source.ticks(segment.source.start)
            if track.kind == .audio {
                // Audio keeps its place: packets before the start (AAC's priming) go before
                // the target start in the first segment (the muxer's edit list hides them),
                // and are left out of later ones, where they would overlap the segment before.
                if segmentIndex > 0 && SaturatingInt64.sum(pts, max(packet.pointee.duration, 0)) <= start {
                    av_packet_unref(packet)
                    continue
                }
                anchor = start
            } else if anchor == nil {
                anchor = min(start, pts)
            }
            // Source units from the anchor, times the segment's rate, from its target start.
            let targetStart = source.ticks(segment.target.start), from = anchor!, rate = segment.rate
            func place(_ ticks: Int64) -> Int64 {
                // Held to Int64's range: packet times come from the file.
                let offset = SaturatingInt64.difference(ticks, from)
                return SaturatingInt64.sum(targetStart, segment.isScaled ? SaturatingInt64.rounded(Double(offset) * rate) : offset)
            }
            if packet.pointee.pts != Int64.min { packet.pointee.pts = place(packet.pointee.pts) }
            if packet.pointee.dts != Int64.min { packet.pointee.dts = place(packet.pointee.dts) }
            if segment.isScaled { packet.pointee.duration = SaturatingInt64.rounded(Double(packet.pointee.duration) * rate) }
            av_packet_rescale_ts(packet, source.timeBase, timeBase)
            // Decode times must grow across segments; never past the presentation time.
            if packet.pointee.dts != Int64.min {
                if packet.pointee.dts <= lastDecodeTime { packet.pointee.dts = lastDecodeTime + 1 }
                if packet.pointee.pts != Int64.min && packet.pointee.dts > packet.pointee.pts { packet.pointee.pts = packet.pointee.dts }
                lastDecodeTime = packet.pointee.dts
            }
            packet.pointee.pos = -1
            hasPacket = true
            return
        }
    }

    private func nextSegment() {
        source = nil
        segmentIndex += 1
    }
}
