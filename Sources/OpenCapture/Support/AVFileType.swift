/// A file format, as AVMediaFormat.h names them. Raw values are Apple's UTIs.
public struct AVFileType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// QuickTime movie ("com.apple.quicktime-movie").
    public static let mov = AVFileType(rawValue: "com.apple.quicktime-movie")
    /// MPEG-4 ("public.mpeg-4").
    public static let mp4 = AVFileType(rawValue: "public.mpeg-4")
    /// iTunes video ("com.apple.m4v-video").
    public static let m4v = AVFileType(rawValue: "com.apple.m4v-video")
    /// Apple MPEG-4 audio ("com.apple.m4a-audio").
    public static let m4a = AVFileType(rawValue: "com.apple.m4a-audio")
    /// JPEG ("public.jpeg").
    public static let jpg = AVFileType(rawValue: "public.jpeg")
    /// HEIC ("public.heic").
    public static let heic = AVFileType(rawValue: "public.heic")
    /// DNG ("com.adobe.raw-image").
    public static let dng = AVFileType(rawValue: "com.adobe.raw-image")
    /// TIFF ("public.tiff").
    public static let tif = AVFileType(rawValue: "public.tiff")
    /// HEIF ("public.heif").
    public static let heif = AVFileType(rawValue: "public.heif")
    /// AVC-Intra ("public.avci").
    public static let avci = AVFileType(rawValue: "public.avci")
    /// 3GPP ("public.3gpp").
    public static let mobile3GPP = AVFileType(rawValue: "public.3gpp")
    /// 3GPP2 ("public.3gpp2").
    public static let mobile3GPP2 = AVFileType(rawValue: "public.3gpp2")
    /// Core Audio Format ("com.apple.coreaudio-format").
    public static let caf = AVFileType(rawValue: "com.apple.coreaudio-format")
    /// WAVE ("com.microsoft.waveform-audio").
    public static let wav = AVFileType(rawValue: "com.microsoft.waveform-audio")
    /// AIFF ("public.aiff-audio").
    public static let aiff = AVFileType(rawValue: "public.aiff-audio")
    /// AIFC ("public.aifc-audio").
    public static let aifc = AVFileType(rawValue: "public.aifc-audio")
    /// AMR ("org.3gpp.adaptive-multi-rate-audio").
    public static let amr = AVFileType(rawValue: "org.3gpp.adaptive-multi-rate-audio")
    /// MPEG layer 3 audio ("public.mp3").
    public static let mp3 = AVFileType(rawValue: "public.mp3")
    /// Sun/NeXT audio ("public.au-audio").
    public static let au = AVFileType(rawValue: "public.au-audio")
    /// AC-3 audio ("public.ac3-audio").
    public static let ac3 = AVFileType(rawValue: "public.ac3-audio")
    /// Enhanced AC-3 audio ("public.enhanced-ac3-audio").
    public static let eac3 = AVFileType(rawValue: "public.enhanced-ac3-audio")
}
