import Foundation

// Apple's AVCompositionTrack refines AVAssetTrack's `segments` and
// `segment(forTrackTime:)` to `AVCompositionTrackSegment` (Objective-C lets a subclass
// narrow the element type), and AVMutableCompositionTrack makes `segments` settable.
// Swift cannot override with another type, so, as for the composition's track accessors
// (AVComposition+Tracks.swift), the refined forms are overloads in a constrained protocol
// extension; AVAssetTrack's are `@_disfavoredOverload`, so on a composition track the
// refined ones are chosen. One settable overload serves both composition track classes:
// a second, read-only one for AVCompositionTrack made expressions such as
// `track.segments.map(\.timeMapping…).map { … } == […]` too costly to type-check. Setting
// the segments of a track that is not mutable raises, as the missing setter would.

/// The refined segment accessors of composition tracks (see the comment above). Not for use by apps.
public protocol _AVCompositionTrackSegmentAccessors: AnyObject {}

extension AVCompositionTrack: _AVCompositionTrackSegmentAccessors {}

extension _AVCompositionTrackSegmentAccessors where Self: AVCompositionTrack {
    /// The segments in target order, end to end from time 0. Setting them (a mutable
    /// track's only; `[]` empties it; Linux: not implicitly unwrapped) raises
    /// NSInvalidArgumentException for segments that break Apple's timing rule (see
    /// `validateSegments(_:)`) or a track that is not mutable.
    public var segments: [AVCompositionTrackSegment] {
        get { compositionSegments }
        set {
            if let mutable = self as? AVMutableCompositionTrack {
                mutable.setSegments(newValue)
            } else {
                enforce {
                    throw AVCaptureException(.invalidArgument, selectorReason("AVCompositionTrack", "setSegments:", "unrecognized selector: the track is not mutable"))
                }
            }
        }
    }

    /// The segment whose target range contains `trackTime`, else the closest one.
    public func segment(forTrackTime trackTime: CMTime) -> AVCompositionTrackSegment? { compositionSegment(forTrackTime: trackTime) }
}
