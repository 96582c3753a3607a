import Foundation

/// Width and height in pixels, as Core Media's `CMVideoDimensions`.
public struct CMVideoDimensions: Sendable, Hashable, CustomStringConvertible {
    public var width: Int32
    public var height: Int32
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }
    public init() { self.init(width: 0, height: 0) }
    public var description: String { "\(width)x\(height)" }
}

/// The kind of media a format describes, as a FourCC.
public typealias CMMediaType = FourCharCode
public typealias FourCharCode = UInt32
/// Video media. The corresponding C constant is `kCMMediaType_Video` ('vide').
public let kCMMediaType_Video: CMMediaType = 0x7669_6465
/// Audio media ('soun').
public let kCMMediaType_Audio: CMMediaType = 0x736F_756E

/// Describes the media in a sample buffer or a device format: its type, subtype (pixel
/// format FourCC) and, for video, the dimensions.
public final class CMFormatDescription: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The media type, e.g. `kCMMediaType_Video`.
    public let mediaType: CMMediaType
    /// The subtype: the pixel format FourCC for video.
    public let mediaSubType: FourCharCode
    /// The picture size for video; zero for other media.
    public let dimensions: CMVideoDimensions

    package init(mediaType: CMMediaType, mediaSubType: FourCharCode, dimensions: CMVideoDimensions) {
        self.mediaType = mediaType
        self.mediaSubType = mediaSubType
        self.dimensions = dimensions
    }

    package convenience init(videoFormat: OSType, width: Int, height: Int) {
        self.init(
            mediaType: kCMMediaType_Video, mediaSubType: videoFormat,
            dimensions: CMVideoDimensions(width: Int32(width), height: Int32(height)))
    }

    public static func == (lhs: CMFormatDescription, rhs: CMFormatDescription) -> Bool {
        lhs.mediaType == rhs.mediaType && lhs.mediaSubType == rhs.mediaSubType && lhs.dimensions == rhs.dimensions
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mediaType)
        hasher.combine(mediaSubType)
        hasher.combine(dimensions)
    }

    public var description: String {
        "<CMVideoFormatDescription \(fourCCString(mediaSubType)) \(dimensions)>"
    }
}

/// A video format description: the same class, as in Apple's SDK.
public typealias CMVideoFormatDescription = CMFormatDescription

/// The picture size of a video format description.
public func CMVideoFormatDescriptionGetDimensions(_ videoDesc: CMVideoFormatDescription) -> CMVideoDimensions {
    videoDesc.dimensions
}

/// The media type of a format description.
public func CMFormatDescriptionGetMediaType(_ desc: CMFormatDescription) -> CMMediaType { desc.mediaType }

/// The media subtype (pixel format FourCC for video) of a format description.
public func CMFormatDescriptionGetMediaSubType(_ desc: CMFormatDescription) -> FourCharCode { desc.mediaSubType }

/// Makes a video format description for a pixel buffer.
@discardableResult
public func CMVideoFormatDescriptionCreateForImageBuffer(
    allocator: AnyObject?, imageBuffer: CVImageBuffer, formatDescriptionOut: UnsafeMutablePointer<CMVideoFormatDescription?>
) -> OSStatus {
    formatDescriptionOut.pointee = CMFormatDescription(
        videoFormat: imageBuffer.format.rawValue, width: imageBuffer.width, height: imageBuffer.height)
    return 0
}

/// A status code, as in Apple's SDK.
public typealias OSStatus = Int32
