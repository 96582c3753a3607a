// Metadata key spaces, keys and identifiers of AVMetadataFormat.h and
// AVMetadataIdentifiers.h that capture apps write, with Apple's string values.

/// A metadata key space ("comn", "mdta", "udta", "itsk"...).
public struct AVMetadataKeySpace: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Keys common to every format.
    public static let common = AVMetadataKeySpace(rawValue: "comn")
    /// QuickTime metadata ('mdta' keys such as com.apple.quicktime.make).
    public static let quickTimeMetadata = AVMetadataKeySpace(rawValue: "mdta")
    /// QuickTime user data ('udta' atoms).
    public static let quickTimeUserData = AVMetadataKeySpace(rawValue: "udta")
    /// iTunes metadata.
    public static let iTunes = AVMetadataKeySpace(rawValue: "itsk")
}

/// A metadata key within a key space.
public struct AVMetadataKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let commonKeyTitle = AVMetadataKey(rawValue: "title")
    public static let commonKeyCreator = AVMetadataKey(rawValue: "creator")
    public static let commonKeySubject = AVMetadataKey(rawValue: "subject")
    public static let commonKeyDescription = AVMetadataKey(rawValue: "description")
    public static let commonKeyCreationDate = AVMetadataKey(rawValue: "creationDate")
    public static let commonKeyLocation = AVMetadataKey(rawValue: "location")
    public static let commonKeyMake = AVMetadataKey(rawValue: "make")
    public static let commonKeyModel = AVMetadataKey(rawValue: "model")
    public static let commonKeySoftware = AVMetadataKey(rawValue: "software")
    public static let commonKeyCopyrights = AVMetadataKey(rawValue: "copyrights")
    public static let commonKeyArtist = AVMetadataKey(rawValue: "artist")
    public static let commonKeyAuthor = AVMetadataKey(rawValue: "author")
    public static let quickTimeMetadataKeyTitle = AVMetadataKey(rawValue: "com.apple.quicktime.title")
    public static let quickTimeMetadataKeyDescription = AVMetadataKey(rawValue: "com.apple.quicktime.description")
    public static let quickTimeMetadataKeyCreationDate = AVMetadataKey(rawValue: "com.apple.quicktime.creationdate")
    public static let quickTimeMetadataKeyLocationISO6709 = AVMetadataKey(rawValue: "com.apple.quicktime.location.ISO6709")
    public static let quickTimeMetadataKeyMake = AVMetadataKey(rawValue: "com.apple.quicktime.make")
    public static let quickTimeMetadataKeyModel = AVMetadataKey(rawValue: "com.apple.quicktime.model")
    public static let quickTimeMetadataKeySoftware = AVMetadataKey(rawValue: "com.apple.quicktime.software")
    public static let quickTimeMetadataKeyCopyright = AVMetadataKey(rawValue: "com.apple.quicktime.copyright")
    public static let quickTimeMetadataKeyArtist = AVMetadataKey(rawValue: "com.apple.quicktime.artist")
    public static let quickTimeMetadataKeyAuthor = AVMetadataKey(rawValue: "com.apple.quicktime.author")
}

/// A key space and key in one string ("mdta/com.apple.quicktime.make").
public struct AVMetadataIdentifier: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let commonIdentifierTitle = AVMetadataIdentifier(rawValue: "common/title")
    public static let commonIdentifierDescription = AVMetadataIdentifier(rawValue: "common/description")
    public static let commonIdentifierCreationDate = AVMetadataIdentifier(rawValue: "common/creationDate")
    public static let commonIdentifierLocation = AVMetadataIdentifier(rawValue: "common/location")
    public static let commonIdentifierMake = AVMetadataIdentifier(rawValue: "common/make")
    public static let commonIdentifierModel = AVMetadataIdentifier(rawValue: "common/model")
    public static let commonIdentifierSoftware = AVMetadataIdentifier(rawValue: "common/software")
    public static let commonIdentifierCopyrights = AVMetadataIdentifier(rawValue: "common/copyrights")
    public static let commonIdentifierArtist = AVMetadataIdentifier(rawValue: "common/artist")
    public static let commonIdentifierAuthor = AVMetadataIdentifier(rawValue: "common/author")
    public static let quickTimeMetadataTitle = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.title")
    public static let quickTimeMetadataDescription = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.description")
    public static let quickTimeMetadataCreationDate = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.creationdate")
    public static let quickTimeMetadataLocationISO6709 = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.ISO6709")
    public static let quickTimeMetadataMake = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.make")
    public static let quickTimeMetadataModel = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.model")
    public static let quickTimeMetadataSoftware = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.software")
    public static let quickTimeMetadataCopyright = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.copyright")
    public static let quickTimeMetadataArtist = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.artist")
    public static let quickTimeMetadataAuthor = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.author")
    /// The picture's orientation (a 16-bit CGImagePropertyOrientation): the movie output's orientation track.
    public static let quickTimeMetadataVideoOrientation = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.video-orientation")
    public static let quickTimeMetadataDirectionFacing = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.direction.facing")
    public static let quickTimeMetadataDirectionMotion = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.direction.motion")
    public static let quickTimeMetadataLocationName = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.name")
    public static let quickTimeMetadataLocationNote = AVMetadataIdentifier(rawValue: "mdta/com.apple.quicktime.location.note")
}
