import Foundation

/// Core Foundation's data object; toll-free bridged with `NSData` on Apple platforms, so
/// here it is `NSData` (`data as Data` reads it, as on iOS).
public typealias CFData = NSData
/// Core Foundation's index and count type.
public typealias CFIndex = Int

/// The bytes of `theData` (valid while it lives).
public func CFDataGetBytePtr(_ theData: CFData) -> UnsafePointer<UInt8>! {
    theData.bytes.assumingMemoryBound(to: UInt8.self)
}

/// How many bytes `theData` has.
public func CFDataGetLength(_ theData: CFData) -> CFIndex { theData.length }

/// Where a bitmap's alpha is and whether colours are premultiplied by it (Core Graphics'
/// `CGImageAlphaInfo`, same raw values).
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0
    case premultipliedLast = 1
    case premultipliedFirst = 2
    case last = 3
    case first = 4
    case noneSkipLast = 5
    case noneSkipFirst = 6
    case alphaOnly = 7
}

/// A bitmap's layout: its alpha info in the low bits, float components, byte order (Core
/// Graphics' `CGBitmapInfo`, same raw values).
public struct CGBitmapInfo: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let floatInfoMask = CGBitmapInfo(rawValue: 0xF00)
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    public static let byteOrderDefault = CGBitmapInfo([])
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
}

/// Hands a bitmap's bytes to readers (Core Graphics' `CGDataProvider`), here held in memory.
public final class CGDataProvider: @unchecked Sendable {
    private let bytes: NSData

    /// A provider of `data`'s bytes.
    public init?(data: CFData) {
        bytes = data
    }

    /// A copy of the provider's bytes.
    public var data: CFData? { NSData(data: bytes as Data) }
}

/// A bitmap image (Core Graphics' `CGImage`): its size, its pixel layout and its bytes,
/// read through `dataProvider` (`image.dataProvider?.data`, then `CFDataGetBytePtr`).
/// Made by `AVCapturePhoto.cgImageRepresentation()` and `previewCGImageRepresentation()`,
/// whose images say the space their samples are in (`colorSpace`: the still's, which is
/// sRGB: stills are rendered and encoded in sRGB).
public final class CGImage: @unchecked Sendable {
    /// Width and height in pixels.
    public let width: Int
    public let height: Int
    /// Bits per colour component and per pixel (8 and 32 for the photo output's images).
    public let bitsPerComponent: Int
    public let bitsPerPixel: Int
    /// Bytes from one row's start to the next's.
    public let bytesPerRow: Int
    /// The layout, with the alpha info and byte order.
    public let bitmapInfo: CGBitmapInfo
    /// The bytes, `bytesPerRow * height` of them.
    public let dataProvider: CGDataProvider?
    /// Whether the image is a mask: false.
    public var isMask: Bool { false }
    /// Whether drawing interpolates it when scaled.
    public let shouldInterpolate: Bool
    /// The colour space of the samples.
    public let colorSpace: CGColorSpace?

    /// Where the alpha is (the low bits of `bitmapInfo`).
    public var alphaInfo: CGImageAlphaInfo {
        CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue) ?? .none
    }

    /// Wraps `bytes` laid out as described, their colours in `colorSpace`; nil when they
    /// are too few.
    package init?(
        width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int, bitmapInfo: CGBitmapInfo, bytes: Data,
        shouldInterpolate: Bool = true, colorSpace: CGColorSpace? = CGColorSpace(name: CGColorSpace.sRGB)
    ) {
        guard width > 0, height > 0, bytesPerRow >= width * bitsPerPixel / 8, bytes.count >= bytesPerRow * height else { return nil }
        self.width = width
        self.height = height
        self.bitsPerComponent = bitsPerComponent
        self.bitsPerPixel = bitsPerPixel
        self.bytesPerRow = bytesPerRow
        self.bitmapInfo = bitmapInfo
        self.shouldInterpolate = shouldInterpolate
        self.colorSpace = colorSpace
        dataProvider = CGDataProvider(data: NSData(data: bytes))
    }
}
