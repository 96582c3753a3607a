import Foundation
import MediaIO

/// A segment of a track: a time mapping from the media's source range to the track's range.
///
/// Threads: immutable; may be used from any thread.
open class AVAssetTrackSegment: NSObject, @unchecked Sendable {
    private let storedTimeMapping: CMTimeMapping
    /// The source range and the target range it plays in.
    open var timeMapping: CMTimeMapping { storedTimeMapping }

    init(timeMapping: CMTimeMapping) {
        self.storedTimeMapping = timeMapping
        super.init()
    }

    /// An empty segment presents nothing during its target range.
    open var isEmpty: Bool { !timeMapping.source.start.isValid }
}

/// A segment of a composition track: a range of a file's track (URL and track ID) placed
/// on the composition's timeline, or an empty range.
///
/// Threads: immutable; may be used from any thread.
open class AVCompositionTrackSegment: AVAssetTrackSegment, @unchecked Sendable {
    private let storedSourceURL: URL?
    /// The file the segment's media is in; nil for an empty segment.
    open var sourceURL: URL? { storedSourceURL }
    private let storedSourceTrackID: CMPersistentTrackID
    /// The track of that file.
    open var sourceTrackID: CMPersistentTrackID { storedSourceTrackID }
    /// The source track, once known (from the asset track inserted, else read from the file).
    private let known = Mutex<MovieTrackInfo?>(nil)

    /// A segment presenting `sourceTimeRange` of track `trackID` of the file at `URL` during
    /// `targetTimeRange`; when the durations differ the media plays at
    /// source.duration / target.duration.
    public init(url URL: URL, trackID: CMPersistentTrackID, sourceTimeRange: CMTimeRange, targetTimeRange: CMTimeRange) {
        storedSourceURL = URL
        storedSourceTrackID = trackID
        super.init(timeMapping: CMTimeMapping(source: sourceTimeRange, target: targetTimeRange))
    }

    /// An empty segment during `timeRange`.
    public init(timeRange: CMTimeRange) {
        storedSourceURL = nil
        storedSourceTrackID = kCMPersistentTrackID_Invalid
        super.init(timeMapping: CMTimeMapping(source: CMTimeRange(start: .invalid, duration: timeRange.duration), target: timeRange))
    }

    init(url: URL, info: MovieTrackInfo, source: CMTimeRange, target: CMTimeRange) {
        storedSourceURL = url
        storedSourceTrackID = info.trackID
        super.init(timeMapping: CMTimeMapping(source: source, target: target))
        known.withLock { $0 = info }
    }

    /// Empty: no source URL.
    open override var isEmpty: Bool { sourceURL == nil }

    /// The source track as the file describes it; nil for an empty segment or a file or
    /// track that cannot be read.
    var sourceInfo: MovieTrackInfo? {
        if let info = known.withLock({ $0 }) { return info }
        guard let url = sourceURL, let reader = try? MovieReader(url: url) else { return nil }
        let info = reader.tracks.first { $0.trackID == sourceTrackID }
        known.withLock { $0 = info }
        return info
    }

    /// The same media placed at another target range.
    func placed(source: CMTimeRange, target: CMTimeRange) -> AVCompositionTrackSegment {
        guard let url = sourceURL else { return AVCompositionTrackSegment(timeRange: target) }
        if let info = known.withLock({ $0 }) { return AVCompositionTrackSegment(url: url, info: info, source: source, target: target) }
        return AVCompositionTrackSegment(url: url, trackID: sourceTrackID, sourceTimeRange: source, targetTimeRange: target)
    }

    /// The MediaIO form the exporter reads.
    var edit: MovieEditSegment {
        guard let url = sourceURL, let info = sourceInfo else { return MovieEditSegment(empty: timeMapping.target) }
        return MovieEditSegment(url: url, track: info, source: timeMapping.source, target: timeMapping.target)
    }

    open override var description: String {
        if isEmpty { return "<AVCompositionTrackSegment empty target \(timeMapping.target)>" }
        return "<AVCompositionTrackSegment \(sourceURL?.lastPathComponent ?? "") track \(sourceTrackID) \(timeMapping)>"
    }
}
