import Foundation
import MediaIO

/// A composition that can be edited: tracks added and removed, ranges of assets inserted
/// (NextLevel's way of joining recorded clips), empty ranges inserted, ranges removed or
/// scaled.
///
/// Its track accessors are typed `[AVMutableCompositionTrack]`, as Apple's (see
/// AVComposition+Tracks.swift).
///
/// Threads: every property and method may be called from any thread; each edit is atomic
/// per track.
open class AVMutableComposition: AVComposition, @unchecked Sendable {
    /// Track IDs used so far, never handed out again.
    private let usedIDs = Mutex<Set<CMPersistentTrackID>>([])

    /// An empty composition.
    public override init(urlAssetInitializationOptions URLAssetInitializationOptions: [String: Any]? = nil) {
        super.init(urlAssetInitializationOptions: URLAssetInitializationOptions)
    }

    /// The authored size; `.zero` reverts to the first video track's size.
    open override var naturalSize: CGSize {
        get { super.naturalSize }
        set { storedNaturalSize.withLock { $0 = newValue } }
    }

    open override func track(withTrackID trackID: CMPersistentTrackID) -> AVMutableCompositionTrack? {
        super.track(withTrackID: trackID) as? AVMutableCompositionTrack
    }

    /// Loads the track with an ID, nil if there is none.
    open override func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVMutableCompositionTrack? {
        track(withTrackID: trackID)
    }

    var mutableTracks: [AVMutableCompositionTrack] { compositionTracks.withLock { $0 }.compactMap { $0 as? AVMutableCompositionTrack } }

    // MARK: Track-level editing

    /// Adds an empty track. `preferredTrackID` is used when it was never used in this
    /// composition; `kCMPersistentTrackID_Invalid` (or a used one) gets a new ID.
    open func addMutableTrack(withMediaType mediaType: AVMediaType, preferredTrackID: CMPersistentTrackID) -> AVMutableCompositionTrack? {
        let trackID = usedIDs.withLock { used -> CMPersistentTrackID in
            var id = preferredTrackID
            if id <= kCMPersistentTrackID_Invalid || used.contains(id) { id = (used.max() ?? 0) + 1 }
            used.insert(id)
            return id
        }
        let track = AVMutableCompositionTrack(composition: self, mediaType: mediaType, trackID: trackID, segments: [])
        compositionTracks.withLock { $0.append(track) }
        return track
    }

    /// Removes a track.
    open func removeTrack(_ track: AVCompositionTrack) {
        compositionTracks.withLock { $0.removeAll { $0 === track } }
    }

    /// A track any range of `track` can be inserted into: one of the same media type that
    /// is empty or whose media has the same codec and format. Nil if there is none.
    open func mutableTrack(compatibleWith track: AVAssetTrack) -> AVMutableCompositionTrack? {
        let source = (track as? AVCompositionTrack)?.sourceInfo ?? track.info
        return mutableTracks.first { candidate in
            guard candidate.mediaType == track.mediaType else { return false }
            guard let existing = candidate.sourceInfo else { return true }
            return existing.codecName == source.codecName && existing.width == source.width && existing.height == source.height
                && existing.sampleRate == source.sampleRate && existing.channels == source.channels
        }
    }

    // MARK: Composition-level editing

    /// Inserts `timeRange` of every track of `asset` (an `AVURLAsset` or a composition) at
    /// `startTime`, into a compatible track or a new one; the other tracks get an empty
    /// range there, so everything after `startTime` is pushed out by the same duration.
    @available(iOS, deprecated: 18.0, renamed: "insertTimeRange(_:of:at:completionHandler:)")
    open func insertTimeRange(_ timeRange: CMTimeRange, of asset: AVAsset, at startTime: CMTime) throws {
        try insertTimeRange(timeRange, of: asset.tracks, at: startTime)
    }

    /// Inserts `timeRange` of the tracks at `startTime` (see `insertTimeRange(_:of:at:)`).
    open func insertTimeRange(_ timeRange: CMTimeRange, of tracks: [AVAssetTrack], at startTime: CMTime) throws {
        guard !tracks.isEmpty else { throw AVError(.noSourceTrack, "The asset has no tracks to insert") }
        let range = CMTimeRange(start: timeRange.start, end: CMTimeMinimum(timeRange.end, tracks.map(\.timeRange.end).max() ?? timeRange.end))
        // Check every track first: all are inserted or none.
        for track in tracks { _ = try AVMutableCompositionTrack.segments(of: track, in: range, into: track.mediaType) }
        var filled: [AVMutableCompositionTrack] = []
        for track in tracks {
            let target = mutableTrack(compatibleWith: track).flatMap { filled.contains($0) ? nil : $0 }
                ?? addMutableTrack(withMediaType: track.mediaType, preferredTrackID: track.trackID)
            guard let target else { continue }
            let available = CMTimeRange(start: range.start, end: CMTimeMinimum(range.end, track.timeRange.end))
            try target.insertTimeRange(available, of: track, at: startTime)
            // A track shorter than the range leaves an empty range up to its end.
            if available.end < range.end { target.insertEmptyTimeRange(CMTimeRange(start: startTime + available.duration, end: startTime + range.duration)) }
            filled.append(target)
        }
        for other in mutableTracks where !filled.contains(other) {
            other.insertEmptyTimeRange(CMTimeRange(start: startTime, duration: range.duration))
        }
    }

    /// The completion-handler form (iOS 16): the handler runs on a global queue.
    open func insertTimeRange(
        _ timeRange: CMTimeRange, of asset: AVAsset, at startTime: CMTime, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        var failure: (any Error)?
        do { try insertTimeRange(timeRange, of: asset.tracks, at: startTime) } catch { failure = error }
        let result = UncheckedSendable(failure)
        DispatchQueue.global().async { completionHandler(result.value) }
    }

    /// Inserts an empty range into every track.
    open func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        for track in mutableTracks { track.insertEmptyTimeRange(timeRange) }
    }

    /// Removes a range from every track.
    open func removeTimeRange(_ timeRange: CMTimeRange) {
        for track in mutableTracks { track.removeTimeRange(timeRange) }
    }

    /// Scales a range of every track to `duration`.
    open func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        for track in mutableTracks { track.scaleTimeRange(timeRange, toDuration: duration) }
    }
}
