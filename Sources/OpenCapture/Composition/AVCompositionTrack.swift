import Foundation
import MediaIO

/// A track of a composition: a media type, a track ID and segments, each a range of a
/// file's track placed on the composition's timeline (or an empty range).
///
/// Its format (size, frame rate, time scale, format descriptions) is its first media
/// segment's source track's.
///
/// Threads: every property and method may be called from any thread.
open class AVCompositionTrack: AVAssetTrack, @unchecked Sendable {
    let storedSegments: Mutex<[AVCompositionTrackSegment]>
    private let type: AVMediaType
    private let identifier: CMPersistentTrackID

    init(composition: AVComposition, mediaType: AVMediaType, trackID: CMPersistentTrackID, segments: [AVCompositionTrackSegment]) {
        type = mediaType
        identifier = trackID
        storedSegments = Mutex(segments)
        let kind: MovieTrackInfo.Kind = mediaType == .video ? .video : mediaType == .audio ? .audio : .other
        super.init(asset: composition, info: MovieTrackInfo(index: -1, trackID: trackID, kind: kind, codecName: ""))
    }

    // Apple refines AVAssetTrack's `segments` and `segment(forTrackTime:)` to the
    // composition segment type; Swift cannot override with another type, so the refined
    // accessors are in AVCompositionTrack+Segments.swift and these overrides answer the
    // base's disfavoured ones (a composition track seen as an `AVAssetTrack`).

    /// The segments in target order, end to end from time 0.
    var compositionSegments: [AVCompositionTrackSegment] { storedSegments.withLock { $0 } }

    /// The composition segments, as the base type.
    @_disfavoredOverload
    open override var segments: [AVAssetTrackSegment] { compositionSegments }

    /// The composition segment for a time, as the base type.
    @_disfavoredOverload
    open override func segment(forTrackTime trackTime: CMTime) -> AVAssetTrackSegment? { compositionSegment(forTrackTime: trackTime) }

    /// The segment whose target range contains `trackTime`, else the closest one.
    func compositionSegment(forTrackTime trackTime: CMTime) -> AVCompositionTrackSegment? {
        let segments = compositionSegments
        if let containing = segments.first(where: { CMTimeRangeContainsTime($0.timeMapping.target, time: trackTime) }) { return containing }
        return segments.min { distance($0, trackTime) < distance($1, trackTime) }
    }

    private func distance(_ segment: AVCompositionTrackSegment, _ time: CMTime) -> Double {
        let target = segment.timeMapping.target
        return min(abs((target.start - time).seconds), abs((target.end - time).seconds))
    }

    /// The source track of the first segment with media.
    var sourceInfo: MovieTrackInfo? { compositionSegments.lazy.compactMap(\.sourceInfo).first }

    open override var trackID: CMPersistentTrackID { identifier }
    open override var mediaType: AVMediaType { type }
    /// From 0 to the end of the last segment.
    open override var timeRange: CMTimeRange { CMTimeRange(start: .zero, end: CompositionTimeline.end(compositionSegments)) }
    open override var naturalSize: CGSize {
        guard let info = sourceInfo else { return .zero }
        return CGSize(width: info.width, height: info.height)
    }
    open override var nominalFrameRate: Float { Float(sourceInfo?.frameRate ?? 0) }
    open override var naturalTimeScale: CMTimeScale { sourceInfo?.timeScale ?? 600 }
    open override var estimatedDataRate: Float { Float(sourceInfo?.bitRate ?? 0) }
    open override var formatDescriptions: [Any] {
        var seen: [String] = []
        var result: [Any] = []
        for segment in compositionSegments {
            guard let url = segment.sourceURL, let info = segment.sourceInfo else { continue }
            let key = "\(info.codecName) \(info.width)x\(info.height) \(info.sampleRate) \(info.channels)"
            guard !seen.contains(key) else { continue }
            seen.append(key)
            let source = AVURLAsset(url: url)
            result += withExtendedLifetime(source) { AVAssetTrack(asset: source, info: info).formatDescriptions }
        }
        return result
    }
    /// Whether FFmpeg decodes every segment's source.
    open override var isPlayable: Bool {
        let media = compositionSegments.filter { !$0.isEmpty }
        return !media.isEmpty && media.allSatisfy { $0.sourceInfo?.decodable == true }
    }

    /// The MediaIO form the exporter and reader read.
    var edit: MovieEditTrack {
        let kind: MovieTrackInfo.Kind = type == .video ? .video : type == .audio ? .audio : .other
        return MovieEditTrack(kind: kind, segments: compositionSegments.map(\.edit))
    }
}
