import Foundation

/// Width and height in pixels, as Core Media's `CMVideoDimensions`.
///
/// Not `Equatable` or `Hashable`, as in Apple's SDK, where it is a plain C struct: apps
/// declare `extension CMVideoDimensions: @retroactive Equatable` themselves (AVCam does),
/// and a conformance here would make that redeclaration an error.
public struct CMVideoDimensions: Sendable, CustomStringConvertible {
    public var width: Int32
    public var height: Int32
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }
    public init() { self.init(width: 0, height: 0) }
    public var description: String { "\(width)x\(height)" }

    /// Same width and height (the module's own comparison; the type has no `==`).
    package func isSameSize(as other: CMVideoDimensions) -> Bool { width == other.width && height == other.height }
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
    /// The media type's code, e.g. `kCMMediaType_Video` (`CMFormatDescriptionGetMediaType`).
    package let mediaTypeCode: CMMediaType
    /// The subtype's code: the pixel format FourCC for video (`CMFormatDescriptionGetMediaSubType`).
    package let mediaSubTypeCode: FourCharCode
    /// The picture size for video; zero for other media.
    public let dimensions: CMVideoDimensions
    /// The stream description, channel layout and magic cookie of an audio format.
    package let audio: AudioFormatStorage?
    /// The keys of a boxed timed-metadata format, in local-ID order (1, 2, ...); nil otherwise.
    package let metadataKeys: [CMMetadataKeyEntry]?

    package init(mediaType: CMMediaType, mediaSubType: FourCharCode, dimensions: CMVideoDimensions) {
        self.mediaTypeCode = mediaType
        self.mediaSubTypeCode = mediaSubType
        self.dimensions = dimensions
        audio = nil
        metadataKeys = nil
    }

    /// A timed-metadata format description ('meta') of `subType` with these keys.
    package init(metadataSubType subType: CMMetadataFormatType, keys: [CMMetadataKeyEntry]) {
        mediaTypeCode = kCMMediaType_Metadata
        mediaSubTypeCode = subType
        dimensions = CMVideoDimensions()
        audio = nil
        metadataKeys = keys
    }

    /// An audio format description ('soun', subtype the format ID).
    package init(audio: AudioFormatStorage) {
        mediaTypeCode = kCMMediaType_Audio
        mediaSubTypeCode = audio.asbd.pointee.mFormatID
        dimensions = CMVideoDimensions()
        self.audio = audio
        metadataKeys = nil
    }

    package convenience init(videoFormat: OSType, width: Int, height: Int) {
        self.init(
            mediaType: kCMMediaType_Video, mediaSubType: videoFormat,
            dimensions: CMVideoDimensions(width: Int32(width), height: Int32(height)))
    }

    public static func == (lhs: CMFormatDescription, rhs: CMFormatDescription) -> Bool {
        lhs.mediaTypeCode == rhs.mediaTypeCode && lhs.mediaSubTypeCode == rhs.mediaSubTypeCode && lhs.dimensions.isSameSize(as: rhs.dimensions)
            && AudioFormatStorage.same(lhs.audio, rhs.audio) && lhs.metadataKeys == rhs.metadataKeys
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mediaTypeCode)
        hasher.combine(mediaSubTypeCode)
        hasher.combine(dimensions.width)
        hasher.combine(dimensions.height)
    }

    /// The media type, e.g. `.video`.
    public var mediaType: MediaType { MediaType(rawValue: mediaTypeCode) }
    /// The media subtype: for video, the pixel format, e.g. `MediaSubType(rawValue: kCVPixelFormatType_32BGRA)`.
    public var mediaSubType: MediaSubType { MediaSubType(rawValue: mediaSubTypeCode) }

    /// The picture size in pixels (clean aperture and pixel aspect ratio are those of the
    /// whole picture with square pixels on Linux, so both flags give the dimensions).
    public func presentationDimensions(usePixelAspectRatio: Bool = true, useCleanAperture: Bool = true) -> CGSize {
        CGSize(width: Int(dimensions.width), height: Int(dimensions.height))
    }

    public var description: String {
        if let audio {
            let asbd = audio.asbd.pointee
            return "<CMAudioFormatDescription \(fourCCString(asbd.mFormatID)) \(asbd.mSampleRate) Hz \(asbd.mChannelsPerFrame) ch>"
        }
        return "<CMVideoFormatDescription \(fourCCString(mediaSubTypeCode)) \(dimensions)>"
    }
}

/// A video format description: the same class, as in Apple's SDK.
public typealias CMVideoFormatDescription = CMFormatDescription

/// The picture size of a video format description.
public func CMVideoFormatDescriptionGetDimensions(_ videoDesc: CMVideoFormatDescription) -> CMVideoDimensions {
    videoDesc.dimensions
}

/// The media type of a format description.
public func CMFormatDescriptionGetMediaType(_ desc: CMFormatDescription) -> CMMediaType { desc.mediaTypeCode }

/// The media subtype (pixel format FourCC for video) of a format description.
public func CMFormatDescriptionGetMediaSubType(_ desc: CMFormatDescription) -> FourCharCode { desc.mediaSubTypeCode }

/// The picture size of a video format description, as `CGSize`.
public func CMVideoFormatDescriptionGetPresentationDimensions(
    _ videoDesc: CMVideoFormatDescription, usePixelAspectRatio: Bool, useCleanAperture: Bool
) -> CGSize {
    videoDesc.presentationDimensions(usePixelAspectRatio: usePixelAspectRatio, useCleanAperture: useCleanAperture)
}

/// Whether two format descriptions are equal.
public func CMFormatDescriptionEqual(_ formatDescription: CMFormatDescription?, otherFormatDescription: CMFormatDescription?) -> Bool {
    formatDescription == otherFormatDescription
}

/// Whether a video format description describes `imageBuffer` (size and pixel format).
public func CMVideoFormatDescriptionMatchesImageBuffer(_ videoDesc: CMVideoFormatDescription, imageBuffer: CVImageBuffer) -> Bool {
    videoDesc.mediaSubTypeCode == imageBuffer.format.rawValue && Int(videoDesc.dimensions.width) == imageBuffer.width
        && Int(videoDesc.dimensions.height) == imageBuffer.height
}

/// Makes a video format description for a codec or pixel format and a size.
@discardableResult
public func CMVideoFormatDescriptionCreate(
    allocator: AnyObject?, codecType: CMVideoCodecType, width: Int32, height: Int32, extensions: [String: Any]?,
    formatDescriptionOut: UnsafeMutablePointer<CMVideoFormatDescription?>
) -> OSStatus {
    formatDescriptionOut.pointee = CMFormatDescription(
        mediaType: kCMMediaType_Video, mediaSubType: codecType, dimensions: CMVideoDimensions(width: width, height: height))
    return 0
}

/// A video codec's four-character code, as `CMVideoCodecType`.
public typealias CMVideoCodecType = FourCharCode
/// A pixel format's four-character code, as `CMPixelFormatType`.
public typealias CMPixelFormatType = FourCharCode

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
