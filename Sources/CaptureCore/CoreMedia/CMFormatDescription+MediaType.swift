import Foundation

// The Swift overlay's typed media type and subtype of a format description, as Apple's
// CoreMedia gives them (`desc.mediaType == .video`, `desc.mediaSubType == .h264`).
extension CMFormatDescription {
    /// A media type: a four-character code such as 'vide'.
    public struct MediaType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: FourCharCode
        public init(rawValue: FourCharCode) { self.rawValue = rawValue }
        /// 'vide'. The corresponding C constant is `kCMMediaType_Video`.
        public static let video = MediaType(rawValue: 0x76696465)
        /// 'soun'. The corresponding C constant is `kCMMediaType_Audio`.
        public static let audio = MediaType(rawValue: 0x736F756E)
        /// 'muxx'. The corresponding C constant is `kCMMediaType_Muxed`.
        public static let muxed = MediaType(rawValue: 0x6D757878)
        /// 'text'. The corresponding C constant is `kCMMediaType_Text`.
        public static let text = MediaType(rawValue: 0x74657874)
        /// 'clcp'. The corresponding C constant is `kCMMediaType_ClosedCaption`.
        public static let closedCaption = MediaType(rawValue: 0x636C6370)
        /// 'sbtl'. The corresponding C constant is `kCMMediaType_Subtitle`.
        public static let subtitle = MediaType(rawValue: 0x7362746C)
        /// 'tmcd'. The corresponding C constant is `kCMMediaType_TimeCode`.
        public static let timeCode = MediaType(rawValue: 0x746D6364)
        /// 'meta'. The corresponding C constant is `kCMMediaType_Metadata`.
        public static let metadata = MediaType(rawValue: 0x6D657461)
        /// 'tbgr'. The corresponding C constant is `kCMMediaType_TaggedBufferGroup`.
        public static let taggedBufferGroup = MediaType(rawValue: 0x74626772)
        public var description: String { fourCCString(rawValue) }
    }

    /// A media subtype: a codec or pixel-format four-character code such as 'avc1' or '420v'.
    public struct MediaSubType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: FourCharCode
        public init(rawValue: FourCharCode) { self.rawValue = rawValue }
        /// 'BGRA'. The corresponding C constant is `kCMPixelFormat_32BGRA`.
        public static let pixelFormat_32BGRA = MediaSubType(rawValue: 0x42475241)
        /// 0x00000018. The corresponding C constant is `kCMPixelFormat_24RGB`.
        public static let pixelFormat_24RGB = MediaSubType(rawValue: 0x00000018)
        /// 0x00000020. The corresponding C constant is `kCMPixelFormat_32ARGB`.
        public static let pixelFormat_32ARGB = MediaSubType(rawValue: 0x00000020)
        /// 0x00000010. The corresponding C constant is `kCMPixelFormat_16BE555`.
        public static let pixelFormat_16BE555 = MediaSubType(rawValue: 0x00000010)
        /// 'B565'. The corresponding C constant is `kCMPixelFormat_16BE565`.
        public static let pixelFormat_16BE565 = MediaSubType(rawValue: 0x42353635)
        /// 'L555'. The corresponding C constant is `kCMPixelFormat_16LE555`.
        public static let pixelFormat_16LE555 = MediaSubType(rawValue: 0x4C353535)
        /// 'L565'. The corresponding C constant is `kCMPixelFormat_16LE565`.
        public static let pixelFormat_16LE565 = MediaSubType(rawValue: 0x4C353635)
        /// '5551'. The corresponding C constant is `kCMPixelFormat_16LE5551`.
        public static let pixelFormat_16LE5551 = MediaSubType(rawValue: 0x35353531)
        /// '2vuy'. The corresponding C constant is `kCMPixelFormat_422YpCbCr8`.
        public static let pixelFormat_422YpCbCr8 = MediaSubType(rawValue: 0x32767579)
        /// 'yuvs'. The corresponding C constant is `kCMPixelFormat_422YpCbCr8_yuvs`.
        public static let pixelFormat_422YpCbCr8_yuvs = MediaSubType(rawValue: 0x79757673)
        /// 'v308'. The corresponding C constant is `kCMPixelFormat_444YpCbCr8`.
        public static let pixelFormat_444YpCbCr8 = MediaSubType(rawValue: 0x76333038)
        /// 'v408'. The corresponding C constant is `kCMPixelFormat_4444YpCbCrA8`.
        public static let pixelFormat_4444YpCbCrA8 = MediaSubType(rawValue: 0x76343038)
        /// 'v216'. The corresponding C constant is `kCMPixelFormat_422YpCbCr16`.
        public static let pixelFormat_422YpCbCr16 = MediaSubType(rawValue: 0x76323136)
        /// 'v210'. The corresponding C constant is `kCMPixelFormat_422YpCbCr10`.
        public static let pixelFormat_422YpCbCr10 = MediaSubType(rawValue: 0x76323130)
        /// 'v410'. The corresponding C constant is `kCMPixelFormat_444YpCbCr10`.
        public static let pixelFormat_444YpCbCr10 = MediaSubType(rawValue: 0x76343130)
        /// 'h263'. The corresponding C constant is `kCMVideoCodecType_H263`.
        public static let h263 = MediaSubType(rawValue: 0x68323633)
        /// 'avc1'. The corresponding C constant is `kCMVideoCodecType_H264`.
        public static let h264 = MediaSubType(rawValue: 0x61766331)
        /// 'hvc1'. The corresponding C constant is `kCMVideoCodecType_HEVC`.
        public static let hevc = MediaSubType(rawValue: 0x68766331)
        /// 'muxa'. The corresponding C constant is `kCMVideoCodecType_HEVCWithAlpha`.
        public static let hevcWithAlpha = MediaSubType(rawValue: 0x6D757861)
        /// 'dvh1'. The corresponding C constant is `kCMVideoCodecType_DolbyVisionHEVC`.
        public static let dolbyVisionHEVC = MediaSubType(rawValue: 0x64766831)
        /// 'mp1v'. The corresponding C constant is `kCMVideoCodecType_MPEG1Video`.
        public static let mpeg1Video = MediaSubType(rawValue: 0x6D703176)
        /// 'mp2v'. The corresponding C constant is `kCMVideoCodecType_MPEG2Video`.
        public static let mpeg2Video = MediaSubType(rawValue: 0x6D703276)
        /// 'mp4v'. The corresponding C constant is `kCMVideoCodecType_MPEG4Video`.
        public static let mpeg4Video = MediaSubType(rawValue: 0x6D703476)
        /// 'vp09'. The corresponding C constant is `kCMVideoCodecType_VP9`.
        public static let vp9 = MediaSubType(rawValue: 0x76703039)
        /// 'jpeg'. The corresponding C constant is `kCMVideoCodecType_JPEG`.
        public static let jpeg = MediaSubType(rawValue: 0x6A706567)
        /// 'dmb1'. The corresponding C constant is `kCMVideoCodecType_JPEG_OpenDML`.
        public static let jpeg_OpenDML = MediaSubType(rawValue: 0x646D6231)
        /// 'jxl '. The corresponding C constant is `kCMVideoCodecType_JPEG_XL`.
        public static let jpegXL = MediaSubType(rawValue: 0x6A786C20)
        /// 'apcn'. The corresponding C constant is `kCMVideoCodecType_AppleProRes422`.
        public static let proRes422 = MediaSubType(rawValue: 0x6170636E)
        /// 'apch'. The corresponding C constant is `kCMVideoCodecType_AppleProRes422HQ`.
        public static let proRes422HQ = MediaSubType(rawValue: 0x61706368)
        /// 'apcs'. The corresponding C constant is `kCMVideoCodecType_AppleProRes422LT`.
        public static let proRes422LT = MediaSubType(rawValue: 0x61706373)
        /// 'apco'. The corresponding C constant is `kCMVideoCodecType_AppleProRes422Proxy`.
        public static let proRes422Proxy = MediaSubType(rawValue: 0x6170636F)
        /// 'ap4h'. The corresponding C constant is `kCMVideoCodecType_AppleProRes4444`.
        public static let proRes4444 = MediaSubType(rawValue: 0x61703468)
        /// 'ap4x'. The corresponding C constant is `kCMVideoCodecType_AppleProRes4444XQ`.
        public static let proRes4444XQ = MediaSubType(rawValue: 0x61703478)
        /// 'aprn'. The corresponding C constant is `kCMVideoCodecType_AppleProResRAW`.
        public static let proResRAW = MediaSubType(rawValue: 0x6170726E)
        /// 'aprh'. The corresponding C constant is `kCMVideoCodecType_AppleProResRAWHQ`.
        public static let proResRAWHQ = MediaSubType(rawValue: 0x61707268)
        /// 'rle '. The corresponding C constant is `kCMVideoCodecType_Animation`.
        public static let animation = MediaSubType(rawValue: 0x726C6520)
        /// 'cvid'. The corresponding C constant is `kCMVideoCodecType_Cinepak`.
        public static let cinepak = MediaSubType(rawValue: 0x63766964)
        /// 'lpcm'. The corresponding C constant is `kAudioFormatLinearPCM`.
        public static let linearPCM = MediaSubType(rawValue: 0x6C70636D)
        /// 'aac '. The corresponding C constant is `kAudioFormatMPEG4AAC`.
        public static let mpeg4AAC = MediaSubType(rawValue: 0x61616320)
        /// 'alac'. The corresponding C constant is `kAudioFormatAppleLossless`.
        public static let appleLossless = MediaSubType(rawValue: 0x616C6163)
        /// 'ac-3'. The corresponding C constant is `kAudioFormatAC3`.
        public static let ac3 = MediaSubType(rawValue: 0x61632D33)
        /// '.mp3'. The corresponding C constant is `kAudioFormatMPEGLayer3`.
        public static let mpegLayer3 = MediaSubType(rawValue: 0x2E6D7033)
        /// 'opus'. The corresponding C constant is `kAudioFormatOpus`.
        public static let opus = MediaSubType(rawValue: 0x6F707573)
        /// 'flac'. The corresponding C constant is `kAudioFormatFLAC`.
        public static let flac = MediaSubType(rawValue: 0x666C6163)
        /// 'alaw'. The corresponding C constant is `kAudioFormatALaw`.
        public static let aLaw = MediaSubType(rawValue: 0x616C6177)
        /// 'ulaw'. The corresponding C constant is `kAudioFormatULaw`.
        public static let uLaw = MediaSubType(rawValue: 0x756C6177)
        public var description: String { fourCCString(rawValue) }
    }
}
