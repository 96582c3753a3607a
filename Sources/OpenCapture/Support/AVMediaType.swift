/// A kind of media, such as video. Raw values are Apple's four-character strings.
public struct AVMediaType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Video ("vide").
    public static let video = AVMediaType(rawValue: "vide")
    /// Audio ("soun").
    public static let audio = AVMediaType(rawValue: "soun")
    /// Timed metadata ("meta").
    public static let metadata = AVMediaType(rawValue: "meta")
    /// Detected objects, as a camera input's metadata-object port carries them to a
    /// metadata output ("mobj").
    public static let metadataObject = AVMediaType(rawValue: "mobj")
    /// Text ("text"): QuickTime text tracks.
    public static let text = AVMediaType(rawValue: "text")
    /// Closed captions ("clcp").
    public static let closedCaption = AVMediaType(rawValue: "clcp")
    /// Subtitles ("sbtl"): an MP4's timed text ('tx3g', FFmpeg's mov_text) among them.
    public static let subtitle = AVMediaType(rawValue: "sbtl")
    /// Depth data ("dpth").
    public static let depthData = AVMediaType(rawValue: "dpth")
}
