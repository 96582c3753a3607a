/// A four-character code, as Core Video and Core Media use for pixel formats.
public typealias OSType = UInt32
/// Core Video's status code.
public typealias CVReturn = Int32
/// Core Video's option flags.
public typealias CVOptionFlags = UInt64

/// Success. The corresponding C constant is `kCVReturnSuccess`.
public let kCVReturnSuccess: CVReturn = 0
/// An argument was invalid.
public let kCVReturnInvalidArgument: CVReturn = -6661
/// Memory could not be allocated.
public let kCVReturnAllocationFailed: CVReturn = -6662
/// The pixel format is not supported.
public let kCVReturnInvalidPixelFormat: CVReturn = -6680
/// The size is invalid.
public let kCVReturnInvalidSize: CVReturn = -6681
/// The pool has reached its maximum number of buffers.
public let kCVReturnWouldExceedAllocationThreshold: CVReturn = -6689
/// What an unbalanced unlock returns (a Linux name): Apple returns an error too, its code
/// undocumented, so this is the generic `kCVReturnError` rather than a specific code
/// (-6690, its earlier value, is `kCVReturnPoolAllocationFailed`).
public let kCVReturnUnlockedWithoutLock: CVReturn = kCVReturnError

/// NV12: a luma plane and an interleaved CbCr plane, video range ('420v').
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076
/// NV12, full range ('420f').
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066
/// I420: three planes Y, Cb, Cr, video range ('y420').
public let kCVPixelFormatType_420YpCbCr8Planar: OSType = 0x7934_3230
/// I420, full range ('f420').
public let kCVPixelFormatType_420YpCbCr8PlanarFullRange: OSType = 0x6634_3230
/// 32-bit B, G, R, A in memory order ('BGRA').
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241
/// P010: a plane of 16-bit little-endian luma samples and a plane of interleaved 16-bit
/// CbCr pairs at half resolution, each sample's 10 bits in the high bits (value << 6), video
/// range: luma 64-940, chroma 64-960 in 10-bit units ('x420').
public let kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange: OSType = 0x7834_3230
/// As 'x420', full range: 0-1023 in 10-bit units ('xf20').
public let kCVPixelFormatType_420YpCbCr10BiPlanarFullRange: OSType = 0x7866_3230

/// The pixel-buffer attribute naming the pixel format (an `OSType`).
public let kCVPixelBufferPixelFormatTypeKey = "PixelFormatType"
/// The pixel-buffer attribute naming the width in pixels.
public let kCVPixelBufferWidthKey = "Width"
/// The pixel-buffer attribute naming the height in pixels.
public let kCVPixelBufferHeightKey = "Height"
/// The pixel-buffer attribute naming the row alignment in bytes.
public let kCVPixelBufferBytesPerRowAlignmentKey = "BytesPerRowAlignment"
/// The pool attribute naming how many buffers the pool keeps at least.
public let kCVPixelBufferPoolMinimumBufferCountKey = "MinimumBufferCount"
/// Linux addition: the pool attribute capping how many buffers the pool may own.
public let kCVPixelBufferPoolMaximumBufferCountKey = "OpenCaptureMaximumBufferCount"

/// Formats this library can allocate, convert and deliver.
package enum PixelFormat: OSType, CaseIterable, Sendable {
    case yuv420BiPlanarVideoRange = 0x3432_3076
    case yuv420BiPlanarFullRange = 0x3432_3066
    case yuv420PlanarVideoRange = 0x7934_3230
    case yuv420PlanarFullRange = 0x6634_3230
    case bgra = 0x4247_5241
    /// 'x420': 10-bit samples in the high bits of 16-bit words, NV12 layout, video range.
    case yuv420TenBitBiPlanarVideoRange = 0x7834_3230
    /// 'xf20': as 'x420', full range.
    case yuv420TenBitBiPlanarFullRange = 0x7866_3230
    /// 'rgg4', 'grb4', 'bgg4', 'gbr4': a Bayer mosaic, one 14-bit code per photosite in a
    /// little-endian 16-bit word, named by the colours of the top-left 2×2 block (a raw
    /// photo's `pixelBuffer`).
    case bayerRGGB14 = 0x7267_6734
    case bayerGRBG14 = 0x6772_6234
    case bayerBGGR14 = 0x6267_6734
    case bayerGBRG14 = 0x6762_7234
    /// 'hdis', 'fdis', 'hdep', 'fdep': one IEEE half or single float per pixel, disparity
    /// (1/metres) or depth (metres): an `AVDepthData`'s map.
    case disparityFloat16 = 0x6864_6973
    case disparityFloat32 = 0x6664_6973
    case depthFloat16 = 0x6864_6570
    case depthFloat32 = 0x6664_6570
    /// 'L008': one 8-bit component per pixel, a portrait or segmentation matte.
    case oneComponent8 = 0x4C30_3038

    package var planeCount: Int {
        switch self {
        case .yuv420BiPlanarVideoRange, .yuv420BiPlanarFullRange: 2
        case .yuv420TenBitBiPlanarVideoRange, .yuv420TenBitBiPlanarFullRange: 2
        case .yuv420PlanarVideoRange, .yuv420PlanarFullRange: 3
        case .bgra: 0  // Core Video reports 0 planes for packed formats
        case .bayerRGGB14, .bayerGRBG14, .bayerBGGR14, .bayerGBRG14: 0
        case .disparityFloat16, .disparityFloat32, .depthFloat16, .depthFloat32, .oneComponent8: 0
        }
    }

    package var isFullRange: Bool {
        switch self {
        case .yuv420BiPlanarFullRange, .yuv420PlanarFullRange, .bgra, .yuv420TenBitBiPlanarFullRange: true
        case .bayerRGGB14, .bayerGRBG14, .bayerBGGR14, .bayerGBRG14: true
        case .disparityFloat16, .disparityFloat32, .depthFloat16, .depthFloat32, .oneComponent8: true
        case .yuv420BiPlanarVideoRange, .yuv420PlanarVideoRange, .yuv420TenBitBiPlanarVideoRange: false
        }
    }

    package var isYUV: Bool { self != .bgra && !isBayer && !isAuxiliary }

    /// Whether this is a Bayer mosaic (a raw photo's codes, not a picture).
    package var isBayer: Bool {
        switch self {
        case .bayerRGGB14, .bayerGRBG14, .bayerBGGR14, .bayerGBRG14: true
        default: false
        }
    }

    /// Whether this is an auxiliary image's format (depth, disparity, a matte): one
    /// component per pixel that is not a picture.
    package var isAuxiliary: Bool {
        switch self {
        case .disparityFloat16, .disparityFloat32, .depthFloat16, .depthFloat32, .oneComponent8: true
        default: false
        }
    }

    /// The depth and disparity formats (an `AVDepthData` map's).
    package var isDepth: Bool { isAuxiliary && self != .oneComponent8 }

    /// Whether this is a picture's format (not a Bayer mosaic, not an auxiliary image): what
    /// frames, video outputs and conversions take.
    package var isPicture: Bool { !isBayer && !isAuxiliary }

    /// Every format that holds a picture: what frames, video outputs and conversions take.
    package static let pictureFormats: [PixelFormat] = allCases.filter(\.isPicture)

    /// The Bayer format whose top-left 2×2 block is `pattern` ("RGGB", ...), if any.
    package init?(bayerPattern pattern: String) {
        switch pattern {
        case "RGGB": self = .bayerRGGB14
        case "GRBG": self = .bayerGRBG14
        case "BGGR": self = .bayerBGGR14
        case "GBRG": self = .bayerGBRG14
        default: return nil
        }
    }

    /// True for 'x420' and 'xf20': 10 significant bits per sample in 16-bit words.
    package var isTenBit: Bool { self == .yuv420TenBitBiPlanarVideoRange || self == .yuv420TenBitBiPlanarFullRange }

    /// The 8-bit NV12 format of the same range for a 10-bit one ('x420' → '420v',
    /// 'xf20' → '420f'); every other format is its own.
    package var eightBit: PixelFormat {
        switch self {
        case .yuv420TenBitBiPlanarVideoRange: .yuv420BiPlanarVideoRange
        case .yuv420TenBitBiPlanarFullRange: .yuv420BiPlanarFullRange
        default: self
        }
    }

    /// The 10-bit format of the same range for a Y'CbCr one ('420v', 'y420' → 'x420';
    /// '420f', 'f420' → 'xf20'); nil for BGRA.
    package var tenBit: PixelFormat? {
        guard isYUV else { return nil }
        return isFullRange ? .yuv420TenBitBiPlanarFullRange : .yuv420TenBitBiPlanarVideoRange
    }

    /// The short name used on the command line and in FourCC strings.
    package var fourCC: String { fourCCString(rawValue) }

    package init?(fourCC: String) {
        guard let match = PixelFormat.allCases.first(where: { $0.fourCC == fourCC }) else { return nil }
        self = match
    }

    /// Sizes of each plane for a picture: (width, height, bytes per pixel group).
    package func planeGeometry(width: Int, height: Int) -> [(width: Int, height: Int, bytesPerPixel: Int)] {
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        switch self {
        case .yuv420BiPlanarVideoRange, .yuv420BiPlanarFullRange:
            return [(width, height, 1), (chromaWidth, chromaHeight, 2)]
        case .yuv420TenBitBiPlanarVideoRange, .yuv420TenBitBiPlanarFullRange:
            return [(width, height, 2), (chromaWidth, chromaHeight, 4)]
        case .yuv420PlanarVideoRange, .yuv420PlanarFullRange:
            return [(width, height, 1), (chromaWidth, chromaHeight, 1), (chromaWidth, chromaHeight, 1)]
        case .bgra:
            return [(width, height, 4)]
        case .bayerRGGB14, .bayerGRBG14, .bayerBGGR14, .bayerGBRG14, .disparityFloat16, .depthFloat16:
            return [(width, height, 2)]
        case .disparityFloat32, .depthFloat32:
            return [(width, height, 4)]
        case .oneComponent8:
            return [(width, height, 1)]
        }
    }
}

/// Renders a FourCC as its four characters, e.g. 0x34323076 as "420v".
package func fourCCString(_ code: OSType) -> String {
    let bytes = [24, 16, 8, 0].map { UInt8((code >> UInt32($0)) & 0xFF) }
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
        return String(decoding: bytes, as: UTF8.self)
    }
    return "0x" + String(code, radix: 16)
}
