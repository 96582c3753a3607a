import CaptureCore
import Foundation

/// One piece of an edited track: a time range of a file's stream placed at a time of the
/// output, or an empty range (a gap). The model of an `AVCompositionTrackSegment`.
package struct MovieEditSegment: Sendable {
    /// The file and stream read; nil for an empty segment.
    package var url: URL?
    package var track: MovieTrackInfo?
    /// The range of the stream read (its own clock).
    package var source: CMTimeRange
    /// Where the range plays in the output.
    package var target: CMTimeRange

    package init(url: URL, track: MovieTrackInfo, source: CMTimeRange, target: CMTimeRange) {
        self.url = url
        self.track = track
        self.source = source
        self.target = target
    }

    /// An empty segment: nothing plays during `target`.
    package init(empty target: CMTimeRange) {
        source = CMTimeRange(start: .invalid, duration: target.duration)
        self.target = target
    }

    package var isEmpty: Bool { url == nil }

    /// Target seconds per source second (1 unless the segment was scaled).
    package var rate: Double {
        guard source.duration.isNumeric, source.duration > .zero, target.duration.isNumeric else { return 1 }
        return target.duration.seconds / source.duration.seconds
    }

    /// Whether the media plays at another speed than its own.
    package var isScaled: Bool { abs(rate - 1) > 1e-9 }

    /// Where source time `time` plays on the target.
    package func targetTime(_ time: CMTime) -> CMTime {
        let offset = time - source.start
        guard isScaled else { return target.start + offset }
        return target.start + CMTime(seconds: offset.seconds * rate, preferredTimescale: max(target.start.timescale, 90_000))
    }

    /// The part of the segment inside `range` of the target, moved `range.start` earlier;
    /// nil when nothing of it is inside.
    package func cropped(to range: CMTimeRange) -> MovieEditSegment? {
        let start = CMTimeMaximum(target.start, range.start)
        let end = CMTimeMinimum(target.end, range.end)
        guard end > start else { return nil }
        var piece = self
        piece.target = CMTimeRange(start: start - range.start, end: end - range.start)
        if !isEmpty {
            let sourceStart = source.start + CMTime(seconds: (start - target.start).seconds / rate, preferredTimescale: max(source.start.timescale, 90_000))
            let length = CMTime(seconds: (end - start).seconds / rate, preferredTimescale: max(source.start.timescale, 90_000))
            piece.source = isScaled || start != target.start || end != target.end ? CMTimeRange(start: sourceStart, duration: length) : source
        } else {
            piece.source = CMTimeRange(start: .invalid, duration: piece.target.duration)
        }
        return piece
    }
}

/// An output track made of segments in target order (a composition track).
package struct MovieEditTrack: Sendable {
    package var kind: MovieTrackInfo.Kind
    package var segments: [MovieEditSegment]

    package init(kind: MovieTrackInfo.Kind, segments: [MovieEditSegment]) {
        self.kind = kind
        self.segments = segments
    }

    /// The segments that read media.
    package var media: [MovieEditSegment] { segments.filter { !$0.isEmpty } }

    /// The part of the track inside `range`, starting at 0 (an export's time range).
    package func cropped(to range: CMTimeRange) -> MovieEditTrack {
        guard range.start.isNumeric, range.start > .zero || range.duration.isNumeric else { return self }
        let bounded = range.duration.isNumeric ? range : CMTimeRange(start: range.start, end: end)
        return MovieEditTrack(kind: kind, segments: segments.compactMap { $0.cropped(to: bounded) })
    }

    /// Throws `.incompatible` for scaled audio: playing sound at another speed needs
    /// time-stretching (Apple's `audioTimePitchAlgorithm`), which Linux does not do.
    package static func checkUnscaledAudio(_ tracks: [MovieEditTrack]) throws(MovieExportError) {
        for track in tracks where track.kind == .audio && track.media.contains(where: \.isScaled) {
            throw .incompatible("scaled audio segments need time-stretching, which OpenCapture does not do")
        }
    }

    /// Where the last segment ends.
    package var end: CMTime { segments.last.map { $0.target.start + $0.target.duration } ?? .zero }
}

/// Why an export (`MovieSegmentCopier`, `MovieTranscoder`) did not finish.
package enum MovieExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A source could not be opened, demuxed or decoded.
    case reader(MovieReaderError)
    /// The output could not be written.
    case writer(MovieWriterError)
    /// The sources cannot be put in one file this way (codecs or formats that differ, a
    /// codec the container does not take, no media).
    case incompatible(String)
    /// The caller cancelled.
    case cancelled

    package var description: String {
        switch self {
        case .reader(let error): error.description
        case .writer(let error): error.description
        case .incompatible(let reason): "cannot export: \(reason)"
        case .cancelled: "the export was cancelled"
        }
    }
}
