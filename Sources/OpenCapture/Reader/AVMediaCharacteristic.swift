/// A characteristic of media that tracks select by (AVMediaFormat.h's
/// `AVMediaCharacteristic`): `asset.tracks(withMediaCharacteristic: .audible)`. Raw values
/// are Apple's.
public struct AVMediaCharacteristic: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Media with a picture: video tracks here.
    public static let visual = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicVisual")
    /// Media with sound: audio tracks here.
    public static let audible = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicAudible")
    /// Media with text to read: subtitle, text and closed-caption tracks (their samples
    /// are not decoded).
    public static let legible = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicLegible")
    /// Media made of frames: video tracks here.
    public static let frameBased = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicFrameBased")
    /// Video in a wide-gamut colour space.
    public static let usesWideGamutColorSpace = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicUsesWideGamutColorSpace")
    /// Video with HDR content.
    public static let containsHDRVideo = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicContainsHDRVideo")
    /// Video with an alpha channel.
    public static let containsAlphaChannel = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicContainsAlphaChannel")
}
