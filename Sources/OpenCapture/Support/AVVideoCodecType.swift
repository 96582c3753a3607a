/// A video or photo codec. Raw values are Apple's four-character strings.
public struct AVVideoCodecType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// JPEG ("jpeg").
    public static let jpeg = AVVideoCodecType(rawValue: "jpeg")
    /// H.264 ("avc1").
    public static let h264 = AVVideoCodecType(rawValue: "avc1")
    /// HEVC ("hvc1"); not available on Linux yet.
    public static let hevc = AVVideoCodecType(rawValue: "hvc1")
}

/// The settings key naming a codec, as in AVFoundation's AVVideoSettings.h.
public let AVVideoCodecKey = "AVVideoCodecKey"
/// The settings key of a quality (0 ... 1) inside `AVVideoCompressionPropertiesKey`.
public let AVVideoQualityKey = "AVVideoQualityKey"
/// The settings key of compression properties.
public let AVVideoCompressionPropertiesKey = "AVVideoCompressionPropertiesKey"
/// The settings key of an average bit rate (bits per second) inside the compression properties.
public let AVVideoAverageBitRateKey = "AverageBitRate"
/// The settings key of a width in pixels (photo thumbnails, video settings).
public let AVVideoWidthKey = "AVVideoWidthKey"
/// The settings key of a height in pixels.
public let AVVideoHeightKey = "AVVideoHeightKey"
