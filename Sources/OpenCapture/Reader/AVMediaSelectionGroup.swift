import Foundation

/// Mutually exclusive options for presenting an asset's media (AVMediaSelectionGroup.h).
/// In a file, the tracks of one alternate group ('tkhd'): the sound tracks in several
/// languages, the subtitle tracks, or alternative video tracks.
///
/// Threads: every member may be called from any thread.
open class AVMediaSelectionGroup: NSObject, NSCopying, @unchecked Sendable {
    private let groupOptions: [AVMediaSelectionOption]
    private let preferred: AVMediaSelectionOption?
    private let mayBeEmpty: Bool

    init(options: [AVMediaSelectionOption], defaultOption: AVMediaSelectionOption?, allowsEmptySelection: Bool) {
        self.groupOptions = options
        self.preferred = defaultOption
        self.mayBeEmpty = allowsEmptySelection
        super.init()
    }

    /// The options, one per track of the group, in the file's track order.
    open var options: [AVMediaSelectionOption] { groupOptions }

    /// The option to present without a choice by the user: the group's enabled track
    /// ('tkhd' flags), as players take it; nil when no track of the group is enabled.
    open var defaultOption: AVMediaSelectionOption? { preferred }

    /// Whether none of the options may be presented: true for subtitles (they can be
    /// switched off), false for sound and video.
    open var allowsEmptySelection: Bool { mayBeEmpty }

    /// The option a property list from `AVMediaSelectionOption.propertyList()` names, if
    /// it is one of this group's; else nil.
    open func mediaSelectionOption(withPropertyList plist: Any) -> AVMediaSelectionOption? {
        guard let list = plist as? [String: Any], let id = (list[AVMediaSelectionOption.trackIDKey] as? NSNumber)?.int32Value else { return nil }
        let type = list[AVMediaSelectionOption.mediaTypeKey] as? String
        return groupOptions.first { $0.track.trackID == id && (type == nil || $0.mediaType.rawValue == type) }
    }

    /// The group is immutable, so a copy is itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVMediaSelectionGroup else { return false }
        return other.groupOptions == groupOptions && other.mayBeEmpty == mayBeEmpty
    }

    open override var hash: Int { groupOptions.map(\.hash).reduce(0) { $0 &* 31 &+ $1 } }

    // MARK: Filtering (AVMediaSelectionOptionFiltering)

    /// The options of `mediaSelectionOptions` that are playable.
    open class func playableMediaSelectionOptions(from mediaSelectionOptions: [AVMediaSelectionOption]) -> [AVMediaSelectionOption] {
        mediaSelectionOptions.filter(\.isPlayable)
    }

    /// The options whose language is one of `preferredLanguages` (BCP 47 tags, as
    /// `Locale.preferredLanguages` gives them), sorted by the order of the language each
    /// matches. A language matches by its language code ("en-GB" matches an "en" option).
    open class func mediaSelectionOptions(
        from mediaSelectionOptions: [AVMediaSelectionOption], filteredAndSortedAccordingToPreferredLanguages preferredLanguages: [String]
    ) -> [AVMediaSelectionOption] {
        var result: [AVMediaSelectionOption] = []
        for language in preferredLanguages.compactMap({ Locale(identifier: $0).languageCode }) {
            for option in mediaSelectionOptions where option.locale?.languageCode == language && !result.contains(option) {
                result.append(option)
            }
        }
        return result
    }

    /// The options authored for `locale`'s language (their locale's language code is
    /// `locale`'s).
    open class func mediaSelectionOptions(from mediaSelectionOptions: [AVMediaSelectionOption], with locale: Locale) -> [AVMediaSelectionOption] {
        guard let language = locale.languageCode else { return [] }
        return mediaSelectionOptions.filter { $0.locale?.languageCode == language }
    }

    /// The options that have every one of `mediaCharacteristics`.
    open class func mediaSelectionOptions(
        from mediaSelectionOptions: [AVMediaSelectionOption], withMediaCharacteristics mediaCharacteristics: [AVMediaCharacteristic]
    ) -> [AVMediaSelectionOption] {
        mediaSelectionOptions.filter { option in mediaCharacteristics.allSatisfy { option.hasMediaCharacteristic($0) } }
    }

    /// The options that have none of `mediaCharacteristics`.
    open class func mediaSelectionOptions(
        from mediaSelectionOptions: [AVMediaSelectionOption], withoutMediaCharacteristics mediaCharacteristics: [AVMediaCharacteristic]
    ) -> [AVMediaSelectionOption] {
        mediaSelectionOptions.filter { option in !mediaCharacteristics.contains { option.hasMediaCharacteristic($0) } }
    }
}
