/// The rest of Core Video's pixel-format constants (CVPixelBuffer.h, iOS 18 SDK), with
/// Apple's names and values, so code that compares against them compiles.
///
/// Core Video itself only defines these names ("CoreVideo does not provide support for all of
/// these formats"). OpenCapture delivers the seven in `PixelFormats.swift`; no output lists
/// any of these in `availableVideoPixelFormatTypes`, and asking for one in `videoSettings`
/// raises `NSInvalidArgumentException`, as iOS does for a format the device cannot give.

/// 1-bit indexed.
public let kCVPixelFormatType_1Monochrome: OSType = 0x0000_0001
/// 2-bit indexed.
public let kCVPixelFormatType_2Indexed: OSType = 0x0000_0002
/// 4-bit indexed.
public let kCVPixelFormatType_4Indexed: OSType = 0x0000_0004
/// 8-bit indexed.
public let kCVPixelFormatType_8Indexed: OSType = 0x0000_0008
/// 1-bit indexed grey, white is zero.
public let kCVPixelFormatType_1IndexedGray_WhiteIsZero: OSType = 0x0000_0021
/// 2-bit indexed grey, white is zero.
public let kCVPixelFormatType_2IndexedGray_WhiteIsZero: OSType = 0x0000_0022
/// 4-bit indexed grey, white is zero.
public let kCVPixelFormatType_4IndexedGray_WhiteIsZero: OSType = 0x0000_0024
/// 8-bit indexed grey, white is zero.
public let kCVPixelFormatType_8IndexedGray_WhiteIsZero: OSType = 0x0000_0028
/// 16-bit big-endian RGB 555.
public let kCVPixelFormatType_16BE555: OSType = 0x0000_0010
/// 16-bit little-endian RGB 555 ('L555').
public let kCVPixelFormatType_16LE555: OSType = 0x4C35_3535
/// 16-bit little-endian RGB 5551 ('5551').
public let kCVPixelFormatType_16LE5551: OSType = 0x3535_3531
/// 16-bit big-endian RGB 565 ('B565').
public let kCVPixelFormatType_16BE565: OSType = 0x4235_3635
/// 16-bit little-endian RGB 565 ('L565').
public let kCVPixelFormatType_16LE565: OSType = 0x4C35_3635
/// 24-bit RGB.
public let kCVPixelFormatType_24RGB: OSType = 0x0000_0018
/// 24-bit BGR ('24BG').
public let kCVPixelFormatType_24BGR: OSType = 0x3234_4247
/// 32-bit ARGB.
public let kCVPixelFormatType_32ARGB: OSType = 0x0000_0020
/// 32-bit ABGR ('ABGR').
public let kCVPixelFormatType_32ABGR: OSType = 0x4142_4752
/// 32-bit RGBA ('RGBA').
public let kCVPixelFormatType_32RGBA: OSType = 0x5247_4241
/// 64-bit ARGB, 16-bit big-endian samples ('b64a').
public let kCVPixelFormatType_64ARGB: OSType = 0x6236_3461
/// 64-bit RGBA, 16-bit little-endian full-range samples ('l64r').
public let kCVPixelFormatType_64RGBALE: OSType = 0x6C36_3472
/// 48-bit RGB, 16-bit big-endian samples ('b48r').
public let kCVPixelFormatType_48RGB: OSType = 0x6234_3872
/// 32-bit alpha and grey, 16-bit big-endian samples ('b32a').
public let kCVPixelFormatType_32AlphaGray: OSType = 0x6233_3261
/// 16-bit grey, big-endian ('b16g').
public let kCVPixelFormatType_16Gray: OSType = 0x6231_3667
/// 30-bit RGB, 10-bit big-endian samples, padding at the least significant end ('R10k').
public let kCVPixelFormatType_30RGB: OSType = 0x5231_306B
/// 30-bit RGB, 10-bit big-endian video-range samples, padding at the most significant end ('r210').
public let kCVPixelFormatType_30RGB_r210: OSType = 0x7232_3130
/// Y'CbCr 8-bit 4:2:2, ordered Cb Y'0 Cr Y'1 ('2vuy').
public let kCVPixelFormatType_422YpCbCr8: OSType = 0x3276_7579
/// Y'CbCrA 8-bit 4:4:4:4, ordered Cb Y' Cr A ('v408').
public let kCVPixelFormatType_4444YpCbCrA8: OSType = 0x7634_3038
/// Y'CbCrA 8-bit 4:4:4:4, rendering format, ordered A Y' Cb Cr ('r408').
public let kCVPixelFormatType_4444YpCbCrA8R: OSType = 0x7234_3038
/// Y'CbCrA 8-bit 4:4:4:4, ordered A Y' Cb Cr, video range ('y408').
public let kCVPixelFormatType_4444AYpCbCr8: OSType = 0x7934_3038
/// Y'CbCrA 16-bit 4:4:4:4, ordered A Y' Cb Cr, video range, little-endian ('y416').
public let kCVPixelFormatType_4444AYpCbCr16: OSType = 0x7934_3136
/// AY'CbCr single-precision float 4:4:4:4 ('r4fl').
public let kCVPixelFormatType_4444AYpCbCrFloat: OSType = 0x7234_666C
/// Y'CbCr 8-bit 4:4:4, ordered Cr Y' Cb, video range ('v308').
public let kCVPixelFormatType_444YpCbCr8: OSType = 0x7633_3038
/// Y'CbCr 10-, 12-, 14- or 16-bit 4:2:2 ('v216').
public let kCVPixelFormatType_422YpCbCr16: OSType = 0x7632_3136
/// Y'CbCr 10-bit 4:2:2 ('v210').
public let kCVPixelFormatType_422YpCbCr10: OSType = 0x7632_3130
/// Y'CbCr 10-bit 4:4:4 ('v410').
public let kCVPixelFormatType_444YpCbCr10: OSType = 0x7634_3130
/// Video-range Y'CbCr 8-bit 4:2:2 (Cb Y'0 Cr Y'1), then an 8-bit alpha plane ('a2vy').
public let kCVPixelFormatType_422YpCbCr_4A_8BiPlanar: OSType = 0x6132_7679
/// Two-plane Y'CbCr 8-bit 4:2:2, video range ('422v').
public let kCVPixelFormatType_422YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3276
/// Two-plane Y'CbCr 8-bit 4:2:2, full range ('422f').
public let kCVPixelFormatType_422YpCbCr8BiPlanarFullRange: OSType = 0x3432_3266
/// Two-plane Y'CbCr 8-bit 4:4:4, video range ('444v').
public let kCVPixelFormatType_444YpCbCr8BiPlanarVideoRange: OSType = 0x3434_3476
/// Two-plane Y'CbCr 8-bit 4:4:4, full range ('444f').
public let kCVPixelFormatType_444YpCbCr8BiPlanarFullRange: OSType = 0x3434_3466
/// Y'CbCr 8-bit 4:2:2, ordered Y'0 Cb Y'1 Cr ('yuvs').
public let kCVPixelFormatType_422YpCbCr8_yuvs: OSType = 0x7975_7673
/// Y'CbCr 8-bit 4:2:2, full range, ordered Y'0 Cb Y'1 Cr ('yuvf').
public let kCVPixelFormatType_422YpCbCr8FullRange: OSType = 0x7975_7666
/// One 8-bit component, black is zero ('L008').
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038
/// Two 8-bit components, black is zero ('2C08').
public let kCVPixelFormatType_TwoComponent8: OSType = 0x3243_3038
/// Little-endian RGB 10-10-10, wide gamut (384-895) ('w30r').
public let kCVPixelFormatType_30RGBLEPackedWideGamut: OSType = 0x7733_3072
/// Little-endian ARGB 2-10-10-10, full range ('l10r').
public let kCVPixelFormatType_ARGB2101010LEPacked: OSType = 0x6C31_3072
/// Little-endian ARGB, 10 bits in the high bits of 16, wide gamut ('w40a').
public let kCVPixelFormatType_40ARGBLEWideGamut: OSType = 0x7734_3061
/// As 'w40a', alpha premultiplied ('w40m').
public let kCVPixelFormatType_40ARGBLEWideGamutPremultiplied: OSType = 0x7734_306D
/// One 10-bit little-endian component in the high bits of 16, black is zero ('L010').
public let kCVPixelFormatType_OneComponent10: OSType = 0x4C30_3130
/// One 12-bit little-endian component in the high bits of 16, black is zero ('L012').
public let kCVPixelFormatType_OneComponent12: OSType = 0x4C30_3132
/// One 16-bit little-endian component, black is zero ('L016').
public let kCVPixelFormatType_OneComponent16: OSType = 0x4C30_3136
/// Two 16-bit little-endian components, black is zero ('2C16').
public let kCVPixelFormatType_TwoComponent16: OSType = 0x3243_3136
/// One IEEE half-precision float component ('L00h').
public let kCVPixelFormatType_OneComponent16Half: OSType = 0x4C30_3068
/// One IEEE single-precision float component ('L00f').
public let kCVPixelFormatType_OneComponent32Float: OSType = 0x4C30_3066
/// Two IEEE half-precision float components ('2C0h').
public let kCVPixelFormatType_TwoComponent16Half: OSType = 0x3243_3068
/// Two IEEE single-precision float components ('2C0f').
public let kCVPixelFormatType_TwoComponent32Float: OSType = 0x3243_3066
/// RGBA, IEEE half-precision floats ('RGhA').
public let kCVPixelFormatType_64RGBAHalf: OSType = 0x5247_6841
/// RGBA, IEEE single-precision floats ('RGfA').
public let kCVPixelFormatType_128RGBAFloat: OSType = 0x5247_6641
/// Bayer 14-bit little-endian in 16 bits, G R / B G ('grb4').
public let kCVPixelFormatType_14Bayer_GRBG: OSType = 0x6772_6234
/// Bayer 14-bit little-endian in 16 bits, R G / G B ('rgg4').
public let kCVPixelFormatType_14Bayer_RGGB: OSType = 0x7267_6734
/// Bayer 14-bit little-endian in 16 bits, B G / G R ('bgg4').
public let kCVPixelFormatType_14Bayer_BGGR: OSType = 0x6267_6734
/// Bayer 14-bit little-endian in 16 bits, G B / R G ('gbr4').
public let kCVPixelFormatType_14Bayer_GBRG: OSType = 0x6762_7234
/// Disparity, IEEE half float, 1/metres ('hdis').
public let kCVPixelFormatType_DisparityFloat16: OSType = 0x6864_6973
/// Disparity, IEEE float, 1/metres ('fdis').
public let kCVPixelFormatType_DisparityFloat32: OSType = 0x6664_6973
/// Depth, IEEE half float, metres ('hdep').
public let kCVPixelFormatType_DepthFloat16: OSType = 0x6864_6570
/// Depth, IEEE float, metres ('fdep').
public let kCVPixelFormatType_DepthFloat32: OSType = 0x6664_6570
/// Two-plane Y'CbCr 10-bit 4:2:2 in the high bits of 16, video range ('x422').
public let kCVPixelFormatType_422YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3232
/// Two-plane Y'CbCr 10-bit 4:4:4 in the high bits of 16, video range ('x444').
public let kCVPixelFormatType_444YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3434
/// Two-plane Y'CbCr 10-bit 4:2:2 in the high bits of 16, full range ('xf22').
public let kCVPixelFormatType_422YpCbCr10BiPlanarFullRange: OSType = 0x7866_3232
/// Two-plane Y'CbCr 10-bit 4:4:4 in the high bits of 16, full range ('xf44').
public let kCVPixelFormatType_444YpCbCr10BiPlanarFullRange: OSType = 0x7866_3434
/// '420v' planes, then an 8-bit full-range alpha plane ('v0a8').
public let kCVPixelFormatType_420YpCbCr8VideoRange_8A_TriPlanar: OSType = 0x7630_6138
/// Bayer 16-bit little-endian samples from ProRes RAW ('bp16').
public let kCVPixelFormatType_16VersatileBayer: OSType = 0x6270_3136
/// RGBA 16-bit little-endian samples from downscaled ProRes RAW ('bp64').
public let kCVPixelFormatType_64RGBA_DownscaledProResRAW: OSType = 0x6270_3634
/// Two-plane Y'CbCr 16-bit 4:2:2, video range ('sv22').
public let kCVPixelFormatType_422YpCbCr16BiPlanarVideoRange: OSType = 0x7376_3232
/// Two-plane Y'CbCr 16-bit 4:4:4, video range ('sv44').
public let kCVPixelFormatType_444YpCbCr16BiPlanarVideoRange: OSType = 0x7376_3434
/// Three-plane Y'CbCr 16-bit 4:4:4, video range, 16-bit alpha ('s4as').
public let kCVPixelFormatType_444YpCbCr16VideoRange_16A_TriPlanar: OSType = 0x7334_6173
/// Lossless-compressed 'BGRA' ('&BGA').
public let kCVPixelFormatType_Lossless_32BGRA: OSType = 0x2642_4741
/// Lossless-compressed 'RGhA' ('&RhA').
public let kCVPixelFormatType_Lossless_64RGBAHalf: OSType = 0x2652_6841
/// Lossless-compressed '420v' ('&8v0').
public let kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarVideoRange: OSType = 0x2638_7630
/// Lossless-compressed '420f' ('&8f0').
public let kCVPixelFormatType_Lossless_420YpCbCr8BiPlanarFullRange: OSType = 0x2638_6630
/// Lossless-compressed, packed 'x420' ('&xv0').
public let kCVPixelFormatType_Lossless_420YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2678_7630
/// Lossless-compressed, packed 'x422' ('&xv2').
public let kCVPixelFormatType_Lossless_422YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2678_7632
/// Lossless-compressed, packed 'xf20' ('&xf0').
public let kCVPixelFormatType_Lossless_420YpCbCr10PackedBiPlanarFullRange: OSType = 0x2678_6630
/// Lossy-compressed 'BGRA' ('-BGA').
public let kCVPixelFormatType_Lossy_32BGRA: OSType = 0x2D42_4741
/// Lossy-compressed '420v' ('-8v0').
public let kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarVideoRange: OSType = 0x2D38_7630
/// Lossy-compressed '420f' ('-8f0').
public let kCVPixelFormatType_Lossy_420YpCbCr8BiPlanarFullRange: OSType = 0x2D38_6630
/// Lossy-compressed, packed 'x420' ('-xv0').
public let kCVPixelFormatType_Lossy_420YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2D78_7630
/// Lossy-compressed, packed 'x422' ('-xv2').
public let kCVPixelFormatType_Lossy_422YpCbCr10PackedBiPlanarVideoRange: OSType = 0x2D78_7632
