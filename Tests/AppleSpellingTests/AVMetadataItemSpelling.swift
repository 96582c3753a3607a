// AVMetadataItem.h, AVMetadataFormat.h and AVMetadataIdentifiers.h (the keys capture apps
// write), spelled as iOS code spells them.
import AVFoundation
import Testing

/// Touches the metadata item declarations; compiled, never called.
func spellAVMetadataItem() {
    let item = AVMutableMetadataItem()
    item.identifier = .quickTimeMetadataLocationISO6709
    item.keySpace = .quickTimeMetadata
    item.key = AVMetadataKey.quickTimeMetadataKeyMake.rawValue as NSString
    item.value = "OpenCapture" as NSString
    item.time = .zero
    item.duration = .invalid
    item.locale = Locale(identifier: "en_US")
    item.extendedLanguageTag = "en-US"
    item.dataType = nil
    item.extraAttributes = [:]
    let read: AVMetadataItem = item
    let identifier: AVMetadataIdentifier? = read.identifier
    let key: (any NSCopying & NSObjectProtocol)? = read.key
    let space: AVMetadataKeySpace? = read.keySpace
    let common: AVMetadataKey? = read.commonKey
    let value: (any NSCopying & NSObjectProtocol)? = read.value
    let strings: (String?, NSNumber?, Date?, Data?) = (read.stringValue, read.numberValue, read.dateValue, read.dataValue)
    let spaces: [AVMetadataKeySpace] = [.common, .quickTimeMetadata, .quickTimeUserData, .iTunes]
    let keys: [AVMetadataKey] = [
        .commonKeyTitle, .commonKeyCreator, .commonKeySubject, .commonKeyDescription, .commonKeyCreationDate, .commonKeyLocation,
        .commonKeyMake, .commonKeyModel, .commonKeySoftware, .commonKeyCopyrights, .commonKeyArtist, .commonKeyAuthor,
        .quickTimeMetadataKeyTitle, .quickTimeMetadataKeyDescription, .quickTimeMetadataKeyCreationDate,
        .quickTimeMetadataKeyLocationISO6709, .quickTimeMetadataKeyMake, .quickTimeMetadataKeyModel, .quickTimeMetadataKeySoftware,
        .quickTimeMetadataKeyCopyright, .quickTimeMetadataKeyArtist, .quickTimeMetadataKeyAuthor,
    ]
    let identifiers: [AVMetadataIdentifier] = [
        .commonIdentifierTitle, .commonIdentifierDescription, .commonIdentifierCreationDate, .commonIdentifierLocation,
        .commonIdentifierMake, .commonIdentifierModel, .commonIdentifierSoftware, .commonIdentifierCopyrights,
        .commonIdentifierArtist, .commonIdentifierAuthor, .quickTimeMetadataTitle, .quickTimeMetadataDescription,
        .quickTimeMetadataCreationDate, .quickTimeMetadataLocationISO6709, .quickTimeMetadataMake, .quickTimeMetadataModel,
        .quickTimeMetadataSoftware, .quickTimeMetadataCopyright, .quickTimeMetadataArtist, .quickTimeMetadataAuthor,
    ]
    _ = (identifier, key, space, common, value, strings, spaces, keys, identifiers)
}

@Suite("AVMetadataItem.h spelling")
struct AVMetadataItemSpellingTests {
    @Test func quickTimeKeysMapToCommonKeys() {
        let item = AVMutableMetadataItem()
        item.keySpace = .quickTimeMetadata
        item.key = AVMetadataKey.quickTimeMetadataKeyModel.rawValue as NSString
        item.value = "iPhone" as NSString
        #expect(item.commonKey == .commonKeyModel)
        #expect(item.identifier == .quickTimeMetadataModel)
        #expect(item.stringValue == "iPhone")
    }

    @Test func identifierGivesKeySpaceAndKey() {
        let item = AVMutableMetadataItem()
        item.identifier = .commonIdentifierTitle
        #expect(item.keySpace == .common)
        #expect((item.key as? NSString).map { $0 as String } == "title")
    }
}
