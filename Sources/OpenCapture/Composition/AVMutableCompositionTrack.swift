import Foundation
import MediaIO

/// A composition track that can be edited: ranges of asset tracks inserted, empty ranges
/// inserted, ranges removed or scaled, or the segments set directly.
///
/// Threads: every property and method may be called from any thread; edits are atomic.
open class AVMutableCompositionTrack: AVCompositionTrack, @unchecked Sendable {
    private let settings = Mutex(Settings())

    private struct Settings {
        var enabled = true
        var naturalTimeScale: CMTimeScale = 0
        var languageCode: String?
        var extendedLanguageTag: String?
        var preferredTransform = CGAffineTransform.identity
        var preferredVolume: Float = 1
    }

    open override var isEnabled: Bool {
        get { settings.withLock { $0.enabled } }
        set { settings.withLock { $0.enabled = newValue } }
    }
    /// The set value, else the first media segment's track's, else 600; 0 reverts to that.
    open override var naturalTimeScale: CMTimeScale {
        get {
            let set = settings.withLock { $0.naturalTimeScale }
            return set > 0 ? set : super.naturalTimeScale
        }
        set { settings.withLock { $0.naturalTimeScale = newValue } }
    }
    open override var languageCode: String? {
        get { settings.withLock { $0.languageCode } }
        set { settings.withLock { $0.languageCode = newValue } }
    }
    open override var extendedLanguageTag: String? {
        get { settings.withLock { $0.extendedLanguageTag } }
        set { settings.withLock { $0.extendedLanguageTag = newValue } }
    }
    /// Identity by default (inserting does not copy the source's, as on iOS).
    open override var preferredTransform: CGAffineTransform {
        get { settings.withLock { $0.preferredTransform } }
        set { settings.withLock { $0.preferredTransform = newValue } }
    }
    open override var preferredVolume: Float {
        get { settings.withLock { $0.preferredVolume } }
        set { settings.withLock { $0.preferredVolume = newValue } }
    }

    /// Sets the segments (the refined `segments` setter, AVCompositionTrack+Segments.swift):
    /// segments that break Apple's timing rule (see `validateSegments(_:)`) raise
    /// NSInvalidArgumentException.
    func setSegments(_ segments: [AVCompositionTrackSegment]) {
        enforce {
            do {
                try CompositionTimeline.validate(segments)
            } catch {
                throw AVCaptureException(.invalidArgument, selectorReason("AVMutableCompositionTrack", "setSegments:", "\(error.localizedDescription)"))
            }
        }
        storedSegments.withLock { $0 = segments }
    }

    /// Inserts `timeRange` of `track` (a track of an `AVURLAsset` or of a composition) at
    /// `startTime` of this track, pushing what was there out; `.invalid` appends at the end.
    /// Throws `AVError` for a track of another media type or a range that is not in it.
    open func insertTimeRange(_ timeRange: CMTimeRange, of track: AVAssetTrack, at startTime: CMTime) throws {
        let inserted = try Self.segments(of: track, in: timeRange, into: mediaType)
        storedSegments.withLock { segments in
            let at = startTime.isNumeric ? startTime : CompositionTimeline.end(segments)
            segments = CompositionTimeline.insert(inserted, into: segments, at: at)
        }
    }

    /// Inserts an empty range, pushing what was there out. Nothing happens at or past the
    /// end (a track cannot end with an empty range).
    open func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.start.isNumeric, timeRange.duration.isNumeric, timeRange.duration > .zero else { return }
        storedSegments.withLock { segments in
            guard timeRange.start < CompositionTimeline.end(segments) else { return }
            let empty = AVCompositionTrackSegment(timeRange: CMTimeRange(start: .zero, duration: timeRange.duration))
            segments = CompositionTimeline.insert([empty], into: segments, at: timeRange.start)
        }
    }

    /// Removes `timeRange`, pulling what follows in.
    open func removeTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.start.isNumeric, timeRange.duration.isNumeric, timeRange.duration > .zero else { return }
        storedSegments.withLock { $0 = CompositionTimeline.remove(timeRange, from: $0) }
    }

    /// Makes the media in `timeRange` last `duration` (it plays at
    /// timeRange.duration / duration).
    open func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        guard timeRange.start.isNumeric, timeRange.duration.isNumeric, duration.isNumeric, duration > .zero else { return }
        storedSegments.withLock { $0 = CompositionTimeline.scale(timeRange, to: duration, in: $0) }
    }

    /// Throws the AVError for segments that break the rule: each starts where the one before
    /// ends, from 0, with a positive duration and, unless empty, a valid source range.
    open func validateSegments(_ trackSegments: [AVCompositionTrackSegment]) throws {
        try CompositionTimeline.validate(trackSegments)
    }

    /// The segments that insert `range` of `track`, laid from 0.
    static func segments(of track: AVAssetTrack, in range: CMTimeRange, into mediaType: AVMediaType) throws -> [AVCompositionTrackSegment] {
        guard track.mediaType == mediaType else {
            throw AVError(.incompatibleAsset, "Cannot insert a \(track.mediaType.rawValue) track into a \(mediaType.rawValue) composition track")
        }
        guard range.start.isNumeric, range.duration.isNumeric, range.duration > .zero else {
            throw AVError(.invalidCompositionTrackSegmentDuration, "The time range to insert is not numeric or empty")
        }
        if let composed = track as? AVCompositionTrack {
            // The composition's segments within the range, relaid from 0.
            var pieces = CompositionTimeline.cut(CompositionTimeline.cut(composed.compositionSegments, at: range.start), at: range.end)
            pieces = pieces.filter { $0.timeMapping.target.start >= range.start && $0.timeMapping.target.end <= range.end }
            return pieces.map { piece in
                let target = piece.timeMapping.target
                return piece.placed(source: piece.timeMapping.source, target: CMTimeRange(start: target.start - range.start, duration: target.duration))
            }
        }
        guard let url = track.asset?.fileURL else {
            throw AVError(.noSourceTrack, "Only tracks of AVURLAssets and AVCompositions can be inserted")
        }
        let available = track.timeRange
        guard range.start >= available.start, range.start < available.end else {
            throw AVError(.invalidCompositionTrackSegmentSourceStartTime, "The time range starts outside the track's \(available)")
        }
        // A range past the track's end inserts what the track has.
        let end = CMTimeMinimum(range.end, available.end)
        let source = CMTimeRange(start: range.start, end: end)
        return [AVCompositionTrackSegment(url: url, info: track.info, source: source, target: CMTimeRange(start: .zero, duration: source.duration))]
    }
}
