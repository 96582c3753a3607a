// The codec strings of AVVideoSettings.h from before iOS 11 typed them as
// `AVVideoCodecType`: plain `String`s equal to the type's raw values, so
// `[AVVideoCodecKey: AVVideoCodecJPEG]` selects the same codec as `AVVideoCodecType.jpeg`
// wherever settings are read (the writer, the photo output, the still-image output).
// Deprecated as Apple's are; the ProRes ones exist only in macOS's SDK.

/// H.264 ("avc1").
@available(iOS, introduced: 4.0, deprecated: 11.0, renamed: "AVVideoCodecType.h264")
@available(macOS, introduced: 10.7, deprecated: 10.13, renamed: "AVVideoCodecType.h264")
public let AVVideoCodecH264: String = AVVideoCodecType.h264.rawValue

/// JPEG ("jpeg").
@available(iOS, introduced: 4.0, deprecated: 11.0, renamed: "AVVideoCodecType.jpeg")
@available(macOS, introduced: 10.7, deprecated: 10.13, renamed: "AVVideoCodecType.jpeg")
public let AVVideoCodecJPEG: String = AVVideoCodecType.jpeg.rawValue

/// HEVC ("hvc1").
@available(iOS, introduced: 11.0, deprecated: 11.0, renamed: "AVVideoCodecType.hevc")
@available(macOS, introduced: 10.13, deprecated: 10.13, renamed: "AVVideoCodecType.hevc")
public let AVVideoCodecHEVC: String = AVVideoCodecType.hevc.rawValue

/// Apple ProRes 4444 ("ap4h"); macOS only in Apple's SDK.
@available(iOS, unavailable)
@available(macOS, introduced: 10.7, deprecated: 10.13, renamed: "AVVideoCodecType.proRes4444")
public let AVVideoCodecAppleProRes4444: String = AVVideoCodecType.proRes4444.rawValue

/// Apple ProRes 422 ("apcn"); macOS only in Apple's SDK.
@available(iOS, unavailable)
@available(macOS, introduced: 10.7, deprecated: 10.13, renamed: "AVVideoCodecType.proRes422")
public let AVVideoCodecAppleProRes422: String = AVVideoCodecType.proRes422.rawValue
