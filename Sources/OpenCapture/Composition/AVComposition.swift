import Foundation
import MediaIO

/// Media of local files in a custom arrangement: tracks made of segments, each a range of a
/// file's track placed on the composition's timeline. Export it with
/// `AVAssetExportSession` (passthrough copies the packets; presets re-encode) or read it
/// with `AVAssetReader`.
///
/// `tracks`, `tracks(withMediaType:)`, `tracks(withMediaCharacteristic:)` and
/// `loadTracks(withMediaType:)` are typed `[AVCompositionTrack]` (`[AVMutableCompositionTrack]`
/// on a mutable composition), as Apple's subclasses refine them: Swift cannot override
/// with an array of a subclass, so the refined forms are overloads that win over
/// `AVAsset`'s (AVComposition+Tracks.swift); through an `AVAsset` reference the
/// `[AVAssetTrack]` forms answer with the same objects.
///
/// Threads: every property and method may be called from any thread.
open class AVComposition: AVAsset, @unchecked Sendable {
    let compositionTracks = Mutex<[AVCompositionTrack]>([])
    let storedNaturalSize = Mutex(CGSize.zero)
    let options: [String: Any]

    init(urlAssetInitializationOptions: [String: Any]?) {
        options = urlAssetInitializationOptions ?? [:]
        super.init()
    }

    public override convenience init() { self.init(urlAssetInitializationOptions: nil) }

    /// The options for the URL assets the composition makes.
    open var urlAssetInitializationOptions: [String: Any] { options }

    /// The set size, else the first video track's.
    open override var naturalSize: CGSize {
        let set = storedNaturalSize.withLock { $0 }
        if set != .zero { return set }
        return compositionTracks.withLock { $0 }.first { $0.mediaType == .video }?.naturalSize ?? .zero
    }

    @_disfavoredOverload
    open override var tracks: [AVAssetTrack] { compositionTracks.withLock { $0 } }
    /// The end of the longest track.
    open override var duration: CMTime {
        compositionTracks.withLock { $0 }.map { CompositionTimeline.end($0.compositionSegments) }.max() ?? .zero
    }
    @_disfavoredOverload
    open override func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] {
        compositionTracks.withLock { $0 }.filter { $0.mediaType == mediaType }
    }
    /// The track with an ID, nil if there is none.
    open override func track(withTrackID trackID: CMPersistentTrackID) -> AVCompositionTrack? {
        compositionTracks.withLock { $0 }.first { $0.trackID == trackID }
    }
    @_disfavoredOverload
    open override func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] { compositionTracks(ofType: mediaType) }
    /// Loads the track with an ID, nil if there is none.
    open override func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVCompositionTrack? { track(withTrackID: trackID) }

    /// Loads the track with an ID (the completion handler runs on a global queue).
    @_disfavoredOverload
    open func loadTrack(withTrackID trackID: CMPersistentTrackID, completionHandler: @escaping @Sendable (AVCompositionTrack?, (any Error)?) -> Void) {
        let track = UncheckedSendable(track(withTrackID: trackID))
        DispatchQueue.global().async { completionHandler(track.value, nil) }
    }

    /// Loads the tracks of a media type (the completion handler runs on a global queue).
    @_disfavoredOverload
    open func loadTracks(withMediaType mediaType: AVMediaType, completionHandler: @escaping @Sendable ([AVCompositionTrack]?, (any Error)?) -> Void) {
        let tracks = UncheckedSendable(compositionTracks(ofType: mediaType))
        DispatchQueue.global().async { completionHandler(tracks.value, nil) }
    }

    /// A composition has no movie-level metadata.
    open override var metadata: [AVMetadataItem] { [] }
    open override var commonMetadata: [AVMetadataItem] { [] }
    open override var preferredTransform: CGAffineTransform { .identity }
    open override var isPlayable: Bool { compositionTracks.withLock { $0 }.contains { $0.isPlayable } }
    open override var isReadable: Bool { isPlayable }
    open override var isExportable: Bool { true }
    open override var isComposable: Bool { true }

    /// A track ID no track uses.
    open func unusedTrackID() -> CMPersistentTrackID {
        (compositionTracks.withLock { $0 }.map(\.trackID).max() ?? 0) + 1
    }

    /// The tracks of a media type, in order.
    func compositionTracks(ofType mediaType: AVMediaType) -> [AVCompositionTrack] {
        compositionTracks.withLock { $0 }.filter { $0.mediaType == mediaType }
    }

    /// The tracks in MediaIO's form, for the exporter and the reader.
    var edits: [MovieEditTrack] { compositionTracks.withLock { $0 }.filter(\.isEnabled).map(\.edit) }
}
