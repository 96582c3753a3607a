// The AVAsset.h compatibility, chapter and media-selection declarations of the iOS 16
// deprecation walk (#30), each beside its replacement, as iOS code spells them.
import AVFoundation
import Testing

/// Touches the compatibility declarations; compiled, never called.
func spellAssetDeprecatedCompatibility(_ asset: AVAsset) async throws {
    let photos: Bool = asset.isCompatibleWithSavedPhotosAlbum
    let loadedPhotos: Bool = try await asset.load(.isCompatibleWithSavedPhotosAlbum)
    let airPlay: Bool = asset.isCompatibleWithAirPlayVideo
    let loadedAirPlay: Bool = try await asset.load(.isCompatibleWithAirPlayVideo)
    _ = (photos, loadedPhotos, airPlay, loadedAirPlay)
}

/// An asset subclass overriding them.
final class SpellingDeprecatedCompatibilityAsset: AVURLAsset, @unchecked Sendable {
    override var isCompatibleWithSavedPhotosAlbum: Bool { super.isCompatibleWithSavedPhotosAlbum }
    override var isCompatibleWithAirPlayVideo: Bool { super.isCompatibleWithAirPlayVideo }
}

/// AVAssetExportSession's duration and length estimates, the deprecated property beside them.
func spellExportSessionEstimates(_ session: AVAssetExportSession) async throws {
    session.estimateMaximumDuration { (duration: CMTime, error: (any Error)?) in _ = (duration, error) }
    session.estimateOutputFileLength { (length: Int64, error: (any Error)?) in _ = (length, error) }
    let duration: CMTime = try await session.estimatedMaximumDuration
    let length: Int64 = try await session.estimatedOutputFileLengthInBytes
    let deprecatedLength: Int64 = session.estimatedOutputFileLength
    _ = (duration, length, deprecatedLength)
}

/// The chapter accessors beside their replacements.
func spellAssetDeprecatedChapters(_ asset: AVAsset) async throws {
    let locales: [Locale] = asset.availableChapterLocales
    let loadedLocales: [Locale] = try await asset.load(.availableChapterLocales)
    let byLocale: [AVTimedMetadataGroup] = asset.chapterMetadataGroups(withTitleLocale: Locale(identifier: "en"), containingItemsWithCommonKeys: [.commonKeyTitle])
    let byLanguages: [AVTimedMetadataGroup] = asset.chapterMetadataGroups(bestMatchingPreferredLanguages: ["en-US"])
    let loadedByLocale: [AVTimedMetadataGroup] = try await asset.loadChapterMetadataGroups(withTitleLocale: .current, containingItemsWithCommonKeys: [])
    let loadedByLanguages: [AVTimedMetadataGroup] = try await asset.loadChapterMetadataGroups(bestMatchingPreferredLanguages: Locale.preferredLanguages)
    _ = (locales, loadedLocales, byLocale, byLanguages, loadedByLocale, loadedByLanguages)
}

/// The track groups beside their replacement.
func spellAssetDeprecatedTrackGroups(_ asset: AVAsset) async throws {
    let groups: [AVAssetTrackGroup] = asset.trackGroups
    let loaded: [AVAssetTrackGroup] = try await asset.load(.trackGroups)
    let ids: [NSNumber] = groups.first?.trackIDs ?? []
    _ = (loaded, ids)
}
