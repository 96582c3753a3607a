import Foundation

/// One option of a media selection group (AVMediaSelectionGroup.h): in a file, one track
/// of an alternate group ('tkhd'), the one a player presents when the option is selected.
///
/// Threads: every member may be called from any thread.
open class AVMediaSelectionOption: NSObject, NSCopying, @unchecked Sendable {
    /// The track the option presents.
    let track: AVAssetTrack

    init(track: AVAssetTrack) {
        self.track = track
        super.init()
    }

    /// The media type of the option's track (`.audio`, `.video`, `.subtitle`...).
    open var mediaType: AVMediaType { track.mediaType }

    /// The four-character codes of the track's formats ('aac ', 'avc1', 'tx3g'...).
    open var mediaSubTypes: [NSNumber] {
        track.formatDescriptions.compactMap { ($0 as? CMFormatDescription).map { NSNumber(value: CMFormatDescriptionGetMediaSubType($0)) } }
    }

    /// Whether the option's track has the characteristic (`.audible`, `.legible`, `.visual`...).
    open func hasMediaCharacteristic(_ mediaCharacteristic: AVMediaCharacteristic) -> Bool {
        track.mediaCharacteristics.contains(mediaCharacteristic)
    }

    /// Whether the option's media can be decoded: FFmpeg has a decoder for the track's codec.
    open var isPlayable: Bool { track.isPlayable || (track.legibleHandlerType != nil && track.info.decodable) }

    /// The option's BCP 47 language tag: the track's 'elng' box, else its media language
    /// ('mdhd', ISO 639-2) in its two-letter form where one exists ("eng" gives "en"); nil
    /// for a track of undetermined language.
    open var extendedLanguageTag: String? {
        if let tag = track.fileExtendedLanguageTag { return tag }
        guard let code = track.info.language, code != "und", !code.isEmpty else { return nil }
        return Locale(identifier: code).languageCode ?? code
    }

    /// The locale the option was authored for (that of `extendedLanguageTag`); nil for a
    /// track of undetermined language.
    open var locale: Locale? { extendedLanguageTag.map { Locale(identifier: $0) } }

    /// The track's items that have a common key.
    open var commonMetadata: [AVMetadataItem] { track.commonMetadata }

    /// The metadata formats of the track's metadata.
    open var availableMetadataFormats: [String] { track.metadataFormats.map(\.rawValue) }

    /// The track's items in the metadata format `format`.
    open func metadata(forFormat format: String) -> [AVMetadataItem] { track.metadataItems(for: AVMetadataFormat(rawValue: format)) }

    /// The option of `mediaSelectionGroup` this one goes with: the track its 'folw'
    /// ("follows") reference names, as a sound track names the subtitles to show with it;
    /// nil when the track names none in that group.
    open func associatedMediaSelectionOption(in mediaSelectionGroup: AVMediaSelectionGroup) -> AVMediaSelectionOption? {
        let followed = track.fileAssociatedTracks(AVAssetTrack.AssociationType(rawValue: "folw")).map(\.trackID)
        return mediaSelectionGroup.options.first { followed.contains($0.track.trackID) }
    }

    /// A property list naming the option within its group, for
    /// `AVMediaSelectionGroup.mediaSelectionOption(withPropertyList:)`: a dictionary of
    /// the track's ID and media type.
    open func propertyList() -> Any {
        [Self.trackIDKey: NSNumber(value: track.trackID), Self.mediaTypeKey: mediaType.rawValue] as [String: Any]
    }

    static let trackIDKey = "AVMediaSelectionOptionTrackID"
    static let mediaTypeKey = "AVMediaSelectionOptionMediaType"

    /// A name to show, in `locale`'s language: the title among the track's common
    /// metadata in that language (or of none), else the name of the option's language
    /// ("French"; "Unknown language" for an undetermined one).
    open func displayName(with locale: Locale) -> String {
        let titles = commonMetadata.filter { $0.commonKey == .commonKeyTitle }
        let language = locale.languageCode
        if let title = titles.first(where: { $0.locale?.languageCode == language }) ?? titles.first(where: { $0.locale == nil }),
            let text = title.stringValue
        {
            return text
        }
        let tag = extendedLanguageTag ?? "und"
        return locale.localizedString(forIdentifier: tag) ?? tag
    }

    /// `displayName(with:)` in the current locale.
    open var displayName: String { displayName(with: .current) }

    /// The option is immutable, so a copy is itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Options are equal when they present the same track of the same asset.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVMediaSelectionOption else { return false }
        return other.track.trackID == track.trackID && other.track.asset === track.asset
    }

    open override var hash: Int { Int(track.trackID) }
}
