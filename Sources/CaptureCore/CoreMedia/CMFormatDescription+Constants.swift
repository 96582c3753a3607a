// The C constants behind CMFormatDescription.MediaType and .MediaSubType (CMFormatDescription.h).

/// `CMFormatDescription.MediaType.muxed`.
public let kCMMediaType_Muxed: CMMediaType = 0x6D757878
/// `CMFormatDescription.MediaType.text`.
public let kCMMediaType_Text: CMMediaType = 0x74657874
/// `CMFormatDescription.MediaType.closedCaption`.
public let kCMMediaType_ClosedCaption: CMMediaType = 0x636C6370
/// `CMFormatDescription.MediaType.subtitle`.
public let kCMMediaType_Subtitle: CMMediaType = 0x7362746C
/// `CMFormatDescription.MediaType.timeCode`.
public let kCMMediaType_TimeCode: CMMediaType = 0x746D6364
/// `CMFormatDescription.MediaType.metadata`.
public let kCMMediaType_Metadata: CMMediaType = 0x6D657461
/// `CMFormatDescription.MediaType.taggedBufferGroup`.
public let kCMMediaType_TaggedBufferGroup: CMMediaType = 0x74626772
/// `CMFormatDescription.MediaSubType.pixelFormat_32BGRA`.
public let kCMPixelFormat_32BGRA: CMPixelFormatType = 0x42475241
/// `CMFormatDescription.MediaSubType.pixelFormat_24RGB`.
public let kCMPixelFormat_24RGB: CMPixelFormatType = 0x00000018
/// `CMFormatDescription.MediaSubType.pixelFormat_32ARGB`.
public let kCMPixelFormat_32ARGB: CMPixelFormatType = 0x00000020
/// `CMFormatDescription.MediaSubType.pixelFormat_16BE555`.
public let kCMPixelFormat_16BE555: CMPixelFormatType = 0x00000010
/// `CMFormatDescription.MediaSubType.pixelFormat_16BE565`.
public let kCMPixelFormat_16BE565: CMPixelFormatType = 0x42353635
/// `CMFormatDescription.MediaSubType.pixelFormat_16LE555`.
public let kCMPixelFormat_16LE555: CMPixelFormatType = 0x4C353535
/// `CMFormatDescription.MediaSubType.pixelFormat_16LE565`.
public let kCMPixelFormat_16LE565: CMPixelFormatType = 0x4C353635
/// `CMFormatDescription.MediaSubType.pixelFormat_16LE5551`.
public let kCMPixelFormat_16LE5551: CMPixelFormatType = 0x35353531
/// `CMFormatDescription.MediaSubType.pixelFormat_422YpCbCr8`.
public let kCMPixelFormat_422YpCbCr8: CMPixelFormatType = 0x32767579
/// `CMFormatDescription.MediaSubType.pixelFormat_422YpCbCr8_yuvs`.
public let kCMPixelFormat_422YpCbCr8_yuvs: CMPixelFormatType = 0x79757673
/// `CMFormatDescription.MediaSubType.pixelFormat_444YpCbCr8`.
public let kCMPixelFormat_444YpCbCr8: CMPixelFormatType = 0x76333038
/// `CMFormatDescription.MediaSubType.pixelFormat_4444YpCbCrA8`.
public let kCMPixelFormat_4444YpCbCrA8: CMPixelFormatType = 0x76343038
/// `CMFormatDescription.MediaSubType.pixelFormat_422YpCbCr16`.
public let kCMPixelFormat_422YpCbCr16: CMPixelFormatType = 0x76323136
/// `CMFormatDescription.MediaSubType.pixelFormat_422YpCbCr10`.
public let kCMPixelFormat_422YpCbCr10: CMPixelFormatType = 0x76323130
/// `CMFormatDescription.MediaSubType.pixelFormat_444YpCbCr10`.
public let kCMPixelFormat_444YpCbCr10: CMPixelFormatType = 0x76343130
/// `CMFormatDescription.MediaSubType.h263`.
public let kCMVideoCodecType_H263: CMVideoCodecType = 0x68323633
/// `CMFormatDescription.MediaSubType.h264`.
public let kCMVideoCodecType_H264: CMVideoCodecType = 0x61766331
/// `CMFormatDescription.MediaSubType.hevc`.
public let kCMVideoCodecType_HEVC: CMVideoCodecType = 0x68766331
/// `CMFormatDescription.MediaSubType.hevcWithAlpha`.
public let kCMVideoCodecType_HEVCWithAlpha: CMVideoCodecType = 0x6D757861
/// `CMFormatDescription.MediaSubType.dolbyVisionHEVC`.
public let kCMVideoCodecType_DolbyVisionHEVC: CMVideoCodecType = 0x64766831
/// `CMFormatDescription.MediaSubType.mpeg1Video`.
public let kCMVideoCodecType_MPEG1Video: CMVideoCodecType = 0x6D703176
/// `CMFormatDescription.MediaSubType.mpeg2Video`.
public let kCMVideoCodecType_MPEG2Video: CMVideoCodecType = 0x6D703276
/// `CMFormatDescription.MediaSubType.mpeg4Video`.
public let kCMVideoCodecType_MPEG4Video: CMVideoCodecType = 0x6D703476
/// `CMFormatDescription.MediaSubType.vp9`.
public let kCMVideoCodecType_VP9: CMVideoCodecType = 0x76703039
/// `CMFormatDescription.MediaSubType.jpeg`.
public let kCMVideoCodecType_JPEG: CMVideoCodecType = 0x6A706567
/// `CMFormatDescription.MediaSubType.jpeg_OpenDML`.
public let kCMVideoCodecType_JPEG_OpenDML: CMVideoCodecType = 0x646D6231
/// `CMFormatDescription.MediaSubType.jpegXL`.
public let kCMVideoCodecType_JPEG_XL: CMVideoCodecType = 0x6A786C20
/// `CMFormatDescription.MediaSubType.proRes422`.
public let kCMVideoCodecType_AppleProRes422: CMVideoCodecType = 0x6170636E
/// `CMFormatDescription.MediaSubType.proRes422HQ`.
public let kCMVideoCodecType_AppleProRes422HQ: CMVideoCodecType = 0x61706368
/// `CMFormatDescription.MediaSubType.proRes422LT`.
public let kCMVideoCodecType_AppleProRes422LT: CMVideoCodecType = 0x61706373
/// `CMFormatDescription.MediaSubType.proRes422Proxy`.
public let kCMVideoCodecType_AppleProRes422Proxy: CMVideoCodecType = 0x6170636F
/// `CMFormatDescription.MediaSubType.proRes4444`.
public let kCMVideoCodecType_AppleProRes4444: CMVideoCodecType = 0x61703468
/// `CMFormatDescription.MediaSubType.proRes4444XQ`.
public let kCMVideoCodecType_AppleProRes4444XQ: CMVideoCodecType = 0x61703478
/// `CMFormatDescription.MediaSubType.proResRAW`.
public let kCMVideoCodecType_AppleProResRAW: CMVideoCodecType = 0x6170726E
/// `CMFormatDescription.MediaSubType.proResRAWHQ`.
public let kCMVideoCodecType_AppleProResRAWHQ: CMVideoCodecType = 0x61707268
/// `CMFormatDescription.MediaSubType.animation`.
public let kCMVideoCodecType_Animation: CMVideoCodecType = 0x726C6520
/// `CMFormatDescription.MediaSubType.cinepak`.
public let kCMVideoCodecType_Cinepak: CMVideoCodecType = 0x63766964
