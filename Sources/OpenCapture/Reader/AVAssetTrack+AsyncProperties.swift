import Foundation

// The `load(_:)` replacements of the iOS 16-deprecated track accessors of the
// deprecation walk (#30): segments, language tag, sample data length, audio sample
// dependencies and association types.

extension AVAsyncProperty where Root: AVAssetTrack, Value == [AVAssetTrackSegment] {
    /// The replacement of the iOS 16-deprecated `segments`.
    public static var segments: AVAsyncProperty<Root, [AVAssetTrackSegment]> { .init("segments") { $0.segments } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == String? {
    /// The replacement of the iOS 16-deprecated `extendedLanguageTag`.
    public static var extendedLanguageTag: AVAsyncProperty<Root, String?> { .init("extendedLanguageTag") { $0.extendedLanguageTag } }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == Int64 {
    /// The replacement of the iOS 16-deprecated `totalSampleDataLength`; throws the AVError
    /// of a file whose packets cannot be read.
    public static var totalSampleDataLength: AVAsyncProperty<Root, Int64> {
        .init("totalSampleDataLength") { track in
            track is AVCompositionTrack ? track.totalSampleDataLength : try track.packetIndex().totalBytes
        }
    }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == Bool {
    /// The replacement of the iOS 16-deprecated `hasAudioSampleDependencies`.
    public static var hasAudioSampleDependencies: AVAsyncProperty<Root, Bool> {
        .init("hasAudioSampleDependencies") { $0.hasAudioSampleDependencies }
    }
}

extension AVAsyncProperty where Root: AVAssetTrack, Value == [AVAssetTrack.AssociationType] {
    /// The replacement of the iOS 16-deprecated `availableTrackAssociationTypes`.
    public static var availableTrackAssociationTypes: AVAsyncProperty<Root, [AVAssetTrack.AssociationType]> {
        .init("availableTrackAssociationTypes") { $0.availableTrackAssociationTypes }
    }
}
