import Foundation

extension AVAssetTrack {
    /// The kinds of association between tracks, as AVAssetTrack.h's
    /// `AVTrackAssociationType`; `.metadataReferent` ('cdsc') ties a timed-metadata track
    /// to the track it describes.
    public struct AssociationType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let audioFallback = AssociationType(rawValue: "fall")
        public static let chapterList = AssociationType(rawValue: "chap")
        public static let forcedSubtitlesOnly = AssociationType(rawValue: "forc")
        public static let selectionFollower = AssociationType(rawValue: "folw")
        public static let timecode = AssociationType(rawValue: "tmcd")
        public static let metadataReferent = AssociationType(rawValue: "cdsc")
    }
}
