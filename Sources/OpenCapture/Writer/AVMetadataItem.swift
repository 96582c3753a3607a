import Foundation

/// A metadata item: a key in a key space (or an identifier) and a value.
///
/// `AVAssetWriter` writes the common keys and their QuickTime-metadata twins (title,
/// description, creation date, ISO 6709 location, make, model, software, copyright, artist,
/// author) as FFmpeg's movie tags, which players and ffprobe show; other keys are not
/// written (Linux limitation).
open class AVMetadataItem: NSObject, @unchecked Sendable {
    /// The item's fields, guarded for the mutable subclass.
    let fields = Mutex(Fields())

    struct Fields {
        var identifier: AVMetadataIdentifier?
        var key: (any NSCopying & NSObjectProtocol)?
        var keySpace: AVMetadataKeySpace?
        var value: (any NSCopying & NSObjectProtocol)?
        var time = CMTime.invalid
        var duration = CMTime.invalid
        var startDate: Date?
        var locale: Locale?
        var extendedLanguageTag: String?
        var dataType: String?
        var extraAttributes: [AVMetadataExtraAttributeKey: Any]?
    }

    public override init() { super.init() }

    /// The key space and key as one identifier: the one set, else made from them.
    open var identifier: AVMetadataIdentifier? {
        fields.withLock { f in
            if let identifier = f.identifier { return identifier }
            guard let space = f.keySpace, let key = f.key.flatMap(Self.keyString) else { return nil }
            return AVMetadataIdentifier(rawValue: "\(space == .common ? "common" : space.rawValue)/\(key)")
        }
    }
    open var key: (any NSCopying & NSObjectProtocol)? {
        fields.withLock { f in f.key ?? f.identifier.map { Self.split($0).key as NSString } }
    }
    open var keySpace: AVMetadataKeySpace? {
        fields.withLock { f in f.keySpace ?? f.identifier.map { Self.split($0).space } }
    }
    /// The common key this item's key maps to, as Apple maps QuickTime metadata keys.
    open var commonKey: AVMetadataKey? {
        guard let space = keySpace, let key = key.flatMap(Self.keyString) else { return nil }
        if space == .common { return AVMetadataKey(rawValue: key) }
        return Self.commonKeys[key]
    }
    open var value: (any NSCopying & NSObjectProtocol)? { fields.withLock { $0.value } }
    open var time: CMTime { fields.withLock { $0.time } }
    open var duration: CMTime { fields.withLock { $0.duration } }
    /// The date the item's value applies from (a timed item in real time), nil unless set.
    open var startDate: Date? { fields.withLock { $0.startDate } }
    open var locale: Locale? { fields.withLock { $0.locale } }
    open var extendedLanguageTag: String? { fields.withLock { $0.extendedLanguageTag } }
    open var dataType: String? { fields.withLock { $0.dataType } }
    open var extraAttributes: [AVMetadataExtraAttributeKey: Any]? { fields.withLock { $0.extraAttributes } }

    /// The value as a string: a string itself, a number's or a date's text.
    open var stringValue: String? {
        switch value {
        case let string as NSString: string as String
        case let number as NSNumber: number.stringValue
        case let date as NSDate: ISO8601DateFormatter().string(from: date as Date)
        default: nil
        }
    }
    open var numberValue: NSNumber? { value as? NSNumber }
    open var dateValue: Date? {
        if let date = value as? NSDate { return date as Date }
        return stringValue.flatMap { ISO8601DateFormatter().date(from: $0) }
    }
    open var dataValue: Data? { (value as? NSData).map { $0 as Data } }

    private static func keyString(_ key: any NSCopying & NSObjectProtocol) -> String? {
        (key as? NSString).map { $0 as String }
    }

    private static func split(_ identifier: AVMetadataIdentifier) -> (space: AVMetadataKeySpace, key: String) {
        let parts = identifier.rawValue.split(separator: "/", maxSplits: 1).map(String.init)
        let space = parts.first == "common" ? AVMetadataKeySpace.common : AVMetadataKeySpace(rawValue: parts.first ?? "")
        return (space, parts.count > 1 ? parts[1] : "")
    }

    /// QuickTime metadata keys and the common keys they stand for.
    static let commonKeys: [String: AVMetadataKey] = [
        AVMetadataKey.quickTimeMetadataKeyTitle.rawValue: .commonKeyTitle,
        AVMetadataKey.quickTimeMetadataKeyDescription.rawValue: .commonKeyDescription,
        AVMetadataKey.quickTimeMetadataKeyCreationDate.rawValue: .commonKeyCreationDate,
        AVMetadataKey.quickTimeMetadataKeyLocationISO6709.rawValue: .commonKeyLocation,
        AVMetadataKey.quickTimeMetadataKeyMake.rawValue: .commonKeyMake,
        AVMetadataKey.quickTimeMetadataKeyModel.rawValue: .commonKeyModel,
        AVMetadataKey.quickTimeMetadataKeySoftware.rawValue: .commonKeySoftware,
        AVMetadataKey.quickTimeMetadataKeyCopyright.rawValue: .commonKeyCopyrights,
        AVMetadataKey.quickTimeMetadataKeyArtist.rawValue: .commonKeyArtist,
        AVMetadataKey.quickTimeMetadataKeyAuthor.rawValue: .commonKeyAuthor,
    ]

    /// The FFmpeg movie tag and value this item is written as, nil for keys not written.
    var movieTag: (String, String)? {
        guard let common = commonKey else { return nil }
        let name: String
        switch common {
        case .commonKeyTitle: name = "title"
        case .commonKeyDescription: name = "description"
        case .commonKeyCreationDate:
            // The 'mvhd' creation time, in the form FFmpeg parses.
            guard let date = dateValue else { return nil }
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return ("creation_time", formatter.string(from: date))
        case .commonKeyLocation: name = "location"
        case .commonKeyMake: name = "make"
        case .commonKeyModel: name = "model"
        case .commonKeySoftware: name = "encoder"
        case .commonKeyCopyrights: name = "copyright"
        case .commonKeyArtist: name = "artist"
        case .commonKeyAuthor: name = "author"
        default: return nil
        }
        return stringValue.map { (name, $0) }
    }
}

/// A metadata item whose fields can be set.
open class AVMutableMetadataItem: AVMetadataItem, @unchecked Sendable {
    public override init() { super.init() }

    open override var identifier: AVMetadataIdentifier? {
        get { super.identifier }
        set { fields.withLock { $0.identifier = newValue } }
    }
    open override var key: (any NSCopying & NSObjectProtocol)? {
        get { super.key }
        set {
            let key = UncheckedSendable(newValue)
            fields.withLock { $0.key = key.value }
        }
    }
    open override var keySpace: AVMetadataKeySpace? {
        get { super.keySpace }
        set { fields.withLock { $0.keySpace = newValue } }
    }
    open override var value: (any NSCopying & NSObjectProtocol)? {
        get { super.value }
        set {
            let value = UncheckedSendable(newValue)
            fields.withLock { $0.value = value.value }
        }
    }
    open override var time: CMTime {
        get { super.time }
        set { fields.withLock { $0.time = newValue } }
    }
    open override var duration: CMTime {
        get { super.duration }
        set { fields.withLock { $0.duration = newValue } }
    }
    open override var startDate: Date? {
        get { super.startDate }
        set { fields.withLock { $0.startDate = newValue } }
    }
    open override var locale: Locale? {
        get { super.locale }
        set { fields.withLock { $0.locale = newValue } }
    }
    open override var extendedLanguageTag: String? {
        get { super.extendedLanguageTag }
        set { fields.withLock { $0.extendedLanguageTag = newValue } }
    }
    open override var dataType: String? {
        get { super.dataType }
        set { fields.withLock { $0.dataType = newValue } }
    }
    open override var extraAttributes: [AVMetadataExtraAttributeKey: Any]? {
        get { super.extraAttributes }
        set {
            let attributes = UncheckedSendable(newValue)
            fields.withLock { $0.extraAttributes = attributes.value }
        }
    }
}

/// A key of `extraAttributes`.
public struct AVMetadataExtraAttributeKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The item's value's type, as a string.
    public static let info = AVMetadataExtraAttributeKey(rawValue: "info")
}
