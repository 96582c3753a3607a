/// A video or photo codec. Raw values are Apple's four-character strings.
public struct AVVideoCodecType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// JPEG ("jpeg").
    public static let jpeg = AVVideoCodecType(rawValue: "jpeg")
    /// H.264 ("avc1").
    public static let h264 = AVVideoCodecType(rawValue: "avc1")
    /// HEVC ("hvc1"): photos (HEIC) and, where FFmpeg has an HEVC encoder, movies.
    public static let hevc = AVVideoCodecType(rawValue: "hvc1")
    /// HEVC with an alpha channel ("muxa"). Never in an output's available codec types:
    /// camera frames have no alpha, and no encoder for it is linked.
    public static let hevcWithAlpha = AVVideoCodecType(rawValue: "muxa")
    /// Apple ProRes 4444 ("ap4h"). The ProRes codecs are in no output's available codec
    /// types here, as on iPhones without ProRes encoding.
    public static let proRes4444 = AVVideoCodecType(rawValue: "ap4h")
    /// Apple ProRes 4444 XQ ("ap4x").
    public static let proRes4444XQ = AVVideoCodecType(rawValue: "ap4x")
    /// Apple ProRes 422 ("apcn").
    public static let proRes422 = AVVideoCodecType(rawValue: "apcn")
    /// Apple ProRes 422 HQ ("apch").
    public static let proRes422HQ = AVVideoCodecType(rawValue: "apch")
    /// Apple ProRes 422 LT ("apcs").
    public static let proRes422LT = AVVideoCodecType(rawValue: "apcs")
    /// Apple ProRes 422 Proxy ("apco").
    public static let proRes422Proxy = AVVideoCodecType(rawValue: "apco")
    /// JPEG XL ("jxlc"): not offered (no encoder linked).
    public static let JPEGXL = AVVideoCodecType(rawValue: "jxlc")
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
