import Foundation

// Apple's AVComposition and AVMutableComposition refine AVAsset's track accessors to
// `[AVCompositionTrack]` and `[AVMutableCompositionTrack]` (Objective-C lets a subclass
// narrow an array's element type). Swift cannot override with another array type, so the
// refined accessors are overloads in constrained protocol extensions: AVAsset's are marked
// `@_disfavoredOverload`, so on a composition the refined ones are chosen
// (`for track in composition.tracks(withMediaType: .video) { track.insertTimeRange(…) }`),
// and the mutable composition's, more constrained, win over the composition's.

/// The refined track accessors of compositions (see the comment above). Not for use by apps.
public protocol _AVCompositionTrackAccessors {}

extension AVComposition: _AVCompositionTrackAccessors {}

extension _AVCompositionTrackAccessors where Self: AVComposition {
    /// The composition's tracks.
    public var tracks: [AVCompositionTrack] { compositionTracks.withLock { $0 } }

    /// The tracks of a media type.
    public func tracks(withMediaType mediaType: AVMediaType) -> [AVCompositionTrack] { compositionTracks(ofType: mediaType) }

    /// The tracks with a media characteristic.
    public func tracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) -> [AVCompositionTrack] {
        tracks.filter { $0.mediaCharacteristics.contains(mediaCharacteristic) }
    }

    /// Loads the tracks of a media type.
    public func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVCompositionTrack] { compositionTracks(ofType: mediaType) }

    /// Loads the tracks with a media characteristic.
    public func loadTracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) async throws -> [AVCompositionTrack] {
        tracks(withMediaCharacteristic: mediaCharacteristic)
    }
}

extension _AVCompositionTrackAccessors where Self: AVMutableComposition {
    /// The composition's tracks.
    public var tracks: [AVMutableCompositionTrack] { mutableTracks }

    /// The tracks of a media type.
    public func tracks(withMediaType mediaType: AVMediaType) -> [AVMutableCompositionTrack] {
        mutableTracks.filter { $0.mediaType == mediaType }
    }

    /// The tracks with a media characteristic.
    public func tracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) -> [AVMutableCompositionTrack] {
        mutableTracks.filter { $0.mediaCharacteristics.contains(mediaCharacteristic) }
    }

    /// Loads the tracks of a media type.
    public func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVMutableCompositionTrack] {
        tracks(withMediaType: mediaType)
    }

    /// Loads the tracks with a media characteristic.
    public func loadTracks(withMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic) async throws -> [AVMutableCompositionTrack] {
        tracks(withMediaCharacteristic: mediaCharacteristic)
    }

    /// Loads the track with an ID (the completion handler runs on a global queue).
    public func loadTrack(
        withTrackID trackID: CMPersistentTrackID, completionHandler: @escaping @Sendable (AVMutableCompositionTrack?, (any Error)?) -> Void
    ) {
        let track = UncheckedSendable(track(withTrackID: trackID))
        DispatchQueue.global().async { completionHandler(track.value, nil) }
    }

    /// Loads the tracks of a media type (the completion handler runs on a global queue).
    public func loadTracks(
        withMediaType mediaType: AVMediaType, completionHandler: @escaping @Sendable ([AVMutableCompositionTrack]?, (any Error)?) -> Void
    ) {
        let tracks = UncheckedSendable(tracks(withMediaType: mediaType))
        DispatchQueue.global().async { completionHandler(tracks.value, nil) }
    }
}
