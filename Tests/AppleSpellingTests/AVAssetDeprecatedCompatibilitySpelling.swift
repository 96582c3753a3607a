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

/// The media selection declarations beside their replacements, and the group's and
/// option's members as a player's audio and subtitle menu uses them.
func spellAssetDeprecatedMediaSelection(_ asset: AVAsset) async throws {
    let characteristics: [AVMediaCharacteristic] = asset.availableMediaCharacteristicsWithMediaSelectionOptions
    let loadedCharacteristics: [AVMediaCharacteristic] = try await asset.load(.availableMediaCharacteristicsWithMediaSelectionOptions)
    let audible: AVMediaSelectionGroup? = asset.mediaSelectionGroup(forMediaCharacteristic: .audible)
    guard let legible = try await asset.loadMediaSelectionGroup(for: AVMediaCharacteristic.legible) else { return }
    asset.loadMediaSelectionGroup(for: .visual) { group, error in _ = (group, error) }
    let options: [AVMediaSelectionOption] = legible.options
    let chosen: AVMediaSelectionOption? = legible.defaultOption
    let mayBeOff: Bool = legible.allowsEmptySelection
    let playable = AVMediaSelectionGroup.playableMediaSelectionOptions(from: options)
    let english = AVMediaSelectionGroup.mediaSelectionOptions(from: options, with: Locale(identifier: "en"))
    let preferred = AVMediaSelectionGroup.mediaSelectionOptions(from: options, filteredAndSortedAccordingToPreferredLanguages: Locale.preferredLanguages)
    let sdh = AVMediaSelectionGroup.mediaSelectionOptions(from: options, withMediaCharacteristics: [.legible])
    let plain = AVMediaSelectionGroup.mediaSelectionOptions(from: options, withoutMediaCharacteristics: [.audible])
    guard let option = options.first else { return }
    let type: AVMediaType = option.mediaType
    let subTypes: [NSNumber] = option.mediaSubTypes
    let legibleOption: Bool = option.hasMediaCharacteristic(.legible)
    let plays: Bool = option.isPlayable
    let tag: String? = option.extendedLanguageTag
    let locale: Locale? = option.locale
    let common: [AVMetadataItem] = option.commonMetadata
    let formats: [String] = option.availableMetadataFormats
    let items: [AVMetadataItem] = option.metadata(forFormat: AVMetadataFormat.quickTimeMetadata.rawValue)
    let name: String = option.displayName
    let localName: String = option.displayName(with: Locale(identifier: "fr"))
    let associated: AVMediaSelectionOption? = audible.flatMap { option.associatedMediaSelectionOption(in: $0) }
    let restored: AVMediaSelectionOption? = legible.mediaSelectionOption(withPropertyList: option.propertyList())
    _ = (characteristics, loadedCharacteristics, chosen, mayBeOff, playable, english, preferred, sdh, plain, type, subTypes)
    _ = (legibleOption, plays, tag, locale, common, formats, items, name, localName, associated, restored)
}

/// The media selections beside their replacements, as a download or player set-up reads them.
func spellAssetDeprecatedMediaSelections(_ asset: AVAsset, group: AVMediaSelectionGroup) async throws {
    let preferred: AVMediaSelection = asset.preferredMediaSelection
    let loadedPreferred: AVMediaSelection = try await asset.load(.preferredMediaSelection)
    let all: [AVMediaSelection] = asset.allMediaSelections
    let loadedAll: [AVMediaSelection] = try await asset.load(.allMediaSelections)
    let owner: AVAsset? = preferred.asset
    let chosen: AVMediaSelectionOption? = preferred.selectedMediaOption(in: group)
    let automatic: Bool = preferred.mediaSelectionCriteriaCanBeAppliedAutomatically(to: group)
    guard let mutable = preferred.mutableCopy() as? AVMutableMediaSelection else { return }
    mutable.select(group.options.last, in: group)
    mutable.select(nil, in: group)
    _ = (loadedPreferred, all, loadedAll, owner, chosen, automatic)
}
