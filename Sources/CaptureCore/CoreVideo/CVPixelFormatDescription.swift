import Foundation

// CVPixelFormatDescription.h: what a pixel format looks like in memory, as a dictionary.
// The built-in descriptions are those of the formats this library allocates and delivers
// (the ones `CVPixelBufferCreate` accepts, the 14-bit Bayer mosaics included); other constants have no description here, as an
// unknown format has none on iOS. Apps can register descriptions of their own.

/// The format's name (a string).
public let kCVPixelFormatName = "Name"
/// The format's constant (a number: the FourCC).
public let kCVPixelFormatConstant = "PixelFormat"
/// The codec type of a compressed format (a number).
public let kCVPixelFormatCodecType = "CodecType"
/// The format's FourCC (a number).
public let kCVPixelFormatFourCC = "FourCC"
/// Whether the format has alpha (a Boolean).
public let kCVPixelFormatContainsAlpha = "ContainsAlpha"
/// Whether the format is Y'CbCr (a Boolean).
public let kCVPixelFormatContainsYCbCr = "ContainsYCbCr"
/// Whether the format is RGB (a Boolean).
public let kCVPixelFormatContainsRGB = "ContainsRGB"
/// Whether the format is greyscale (a Boolean).
public let kCVPixelFormatContainsGrayscale = "ContainsGrayscale"
/// Whether the format is a raw sensel array (a Boolean).
public let kCVPixelFormatContainsSenselArray = "ContainsSenselArray"
/// The range of the components: video, full or wide.
public let kCVPixelFormatComponentRange = "ComponentRange"
public let kCVPixelFormatComponentRange_VideoRange = "VideoRange"
public let kCVPixelFormatComponentRange_FullRange = "FullRange"
public let kCVPixelFormatComponentRange_WideRange = "WideRange"
/// The planes of a planar format: an array of dictionaries with the block keys below.
public let kCVPixelFormatPlanes = "Planes"
/// Pixels per block horizontally (a number, default 1).
public let kCVPixelFormatBlockWidth = "BlockWidth"
/// Pixels per block vertically (a number, default 1).
public let kCVPixelFormatBlockHeight = "BlockHeight"
/// Bits per block (a number; required).
public let kCVPixelFormatBitsPerBlock = "BitsPerBlock"
/// Significant bits per component (a number).
public let kCVPixelFormatBitsPerComponent = "BitsPerComponent"
/// Horizontal alignment of blocks, in pixels.
public let kCVPixelFormatBlockHorizontalAlignment = "BlockHorizontalAlignment"
/// Vertical alignment of blocks, in pixels.
public let kCVPixelFormatBlockVerticalAlignment = "BlockVerticalAlignment"
/// The bytes of one black block (data).
public let kCVPixelFormatBlackBlock = "BlackBlock"
/// Horizontal subsampling of a plane (a number: 2 for 4:2:x chroma).
public let kCVPixelFormatHorizontalSubsampling = "HorizontalSubsampling"
/// Vertical subsampling of a plane (a number: 2 for 4:2:0 chroma).
public let kCVPixelFormatVerticalSubsampling = "VerticalSubsampling"
/// The OpenGL format, type and internal format (numbers; no OpenGL here).
public let kCVPixelFormatOpenGLFormat = "OpenGLFormat"
public let kCVPixelFormatOpenGLType = "OpenGLType"
public let kCVPixelFormatOpenGLInternalFormat = "OpenGLInternalFormat"
/// The CGBitmapInfo a CGImage of the format would use (a number).
public let kCVPixelFormatCGBitmapInfo = "CGBitmapInfo"
/// Compatibility flags (Booleans).
public let kCVPixelFormatQDCompatibility = "QDCompatibility"
public let kCVPixelFormatCGBitmapContextCompatibility = "CGBitmapContextCompatibility"
public let kCVPixelFormatCGImageCompatibility = "CGImageCompatibility"
public let kCVPixelFormatOpenGLCompatibility = "OpenGLCompatibility"
public let kCVPixelFormatOpenGLESCompatibility = "OpenGLESCompatibility"
/// A callback that fills extended pixels (buffers here have none).
public let kCVPixelFormatFillExtendedPixelsCallback = "FillExtendedPixelsCallback"

/// A registered description. Registration hands the dictionary over, as Core Video keeps
/// the CFDictionary it is given; it is only read afterwards.
private struct RegisteredDescription: @unchecked Sendable {
    let dictionary: [String: Any]
}

/// Descriptions apps registered, by format; they take precedence over the built-in ones.
private let registeredDescriptions = Locked<[OSType: RegisteredDescription]>([:])

/// The description of `pixelFormat`, or nil when the format is unknown.
public func CVPixelFormatDescriptionCreateWithPixelFormatType(_ allocator: AnyObject?, _ pixelFormat: OSType) -> [String: Any]? {
    if let registered = registeredDescriptions.withLock({ $0[pixelFormat] }) { return registered.dictionary }
    return PixelFormat(rawValue: pixelFormat).map(builtInDescription)
}

/// Every format with a description (NSNumbers of the FourCCs): the built-in ones, then
/// those apps registered.
public func CVPixelFormatDescriptionArrayCreateWithAllPixelFormatTypes(_ allocator: AnyObject?) -> [Any]? {
    let registered = registeredDescriptions.withLock { Array($0.keys) }.sorted()
    let builtIn = PixelFormat.allCases.map(\.rawValue)
    return (builtIn + registered.filter { !builtIn.contains($0) }).map { NSNumber(value: $0) }
}

/// Registers (or replaces) the description of `pixelFormat`, so that
/// `CVPixelFormatDescriptionCreateWithPixelFormatType` returns it and the format is listed.
public func CVPixelFormatDescriptionRegisterDescriptionWithPixelFormatType(_ description: [String: Any], _ pixelFormat: OSType) {
    registeredDescriptions.withLock { $0[pixelFormat] = RegisteredDescription(dictionary: description) }
}

/// The description of a format this library allocates, from its plane layout.
private func builtInDescription(_ format: PixelFormat) -> [String: Any] {
    var description: [String: Any] = [
        kCVPixelFormatName: pixelFormatName(format), kCVPixelFormatConstant: NSNumber(value: format.rawValue),
        kCVPixelFormatContainsYCbCr: NSNumber(value: format.isYUV), kCVPixelFormatContainsRGB: NSNumber(value: format == .bgra),
        kCVPixelFormatContainsAlpha: NSNumber(value: format == .bgra), kCVPixelFormatContainsGrayscale: NSNumber(value: format.isAuxiliary),
        kCVPixelFormatContainsSenselArray: NSNumber(value: format.isBayer),
        kCVPixelFormatBitsPerComponent: NSNumber(value: format.isBayer ? 14 : format.isTenBit ? 10 : format.isAuxiliary ? 8 * format.planeGeometry(width: 1, height: 1)[0].bytesPerPixel : 8),
        kCVPixelFormatCGBitmapContextCompatibility: NSNumber(value: format == .bgra),
        kCVPixelFormatCGImageCompatibility: NSNumber(value: format == .bgra),
        kCVPixelFormatOpenGLESCompatibility: NSNumber(value: true),
    ]
    if format.isYUV {
        description[kCVPixelFormatComponentRange] =
            format.isFullRange ? kCVPixelFormatComponentRange_FullRange : kCVPixelFormatComponentRange_VideoRange
    } else if format == .bgra {
        // 32-bit little-endian, alpha first in the word: B, G, R, A in memory.
        description[kCVPixelFormatCGBitmapInfo] = NSNumber(value: 8194)
    }
    // Plane 0 is full size; the others are the 2x2-subsampled chroma planes.
    let planes: [[String: Any]] = format.planeGeometry(width: 2, height: 2).enumerated().map { index, plane in
        var entry: [String: Any] = [kCVPixelFormatBitsPerBlock: NSNumber(value: plane.bytesPerPixel * 8)]
        if index > 0 {
            entry[kCVPixelFormatHorizontalSubsampling] = NSNumber(value: 2)
            entry[kCVPixelFormatVerticalSubsampling] = NSNumber(value: 2)
        }
        return entry
    }
    if format.planeCount > 0 {
        description[kCVPixelFormatPlanes] = planes
    } else {
        description.merge(planes[0]) { _, plane in plane }
    }
    return description
}

/// The format's name as its `kCVPixelFormatType_` constant spells it.
private func pixelFormatName(_ format: PixelFormat) -> String {
    switch format {
    case .yuv420BiPlanarVideoRange: "420YpCbCr8BiPlanarVideoRange"
    case .yuv420BiPlanarFullRange: "420YpCbCr8BiPlanarFullRange"
    case .yuv420PlanarVideoRange: "420YpCbCr8Planar"
    case .yuv420PlanarFullRange: "420YpCbCr8PlanarFullRange"
    case .bgra: "32BGRA"
    case .yuv420TenBitBiPlanarVideoRange: "420YpCbCr10BiPlanarVideoRange"
    case .yuv420TenBitBiPlanarFullRange: "420YpCbCr10BiPlanarFullRange"
    case .bayerRGGB14: "14Bayer_RGGB"
    case .bayerGRBG14: "14Bayer_GRBG"
    case .bayerBGGR14: "14Bayer_BGGR"
    case .bayerGBRG14: "14Bayer_GBRG"
    case .disparityFloat16: "DisparityFloat16"
    case .disparityFloat32: "DisparityFloat32"
    case .depthFloat16: "DepthFloat16"
    case .depthFloat32: "DepthFloat32"
    case .oneComponent8: "OneComponent8"
    }
}
