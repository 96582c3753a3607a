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
}
