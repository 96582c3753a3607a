import Foundation

/// Whether Y'CbCr samples use the full range (a Boolean). The corresponding C constant
/// is `kCMFormatDescriptionExtension_FullRangeVideo`.
public let kCMFormatDescriptionExtension_FullRangeVideo = "FullRangeVideo"
/// The clean aperture (a dictionary of width, height and offsets).
public let kCMFormatDescriptionExtension_CleanAperture = kCVImageBufferCleanApertureKey
/// Fields per frame: 1 for progressive video.
public let kCMFormatDescriptionExtension_FieldCount = kCVImageBufferFieldCountKey
/// The colour primaries; the same key as the image buffer attachment.
public let kCMFormatDescriptionExtension_ColorPrimaries = kCVImageBufferColorPrimariesKey
/// The transfer function; the same key as the image buffer attachment.
public let kCMFormatDescriptionExtension_TransferFunction = kCVImageBufferTransferFunctionKey
/// The Y'CbCr matrix; the same key as the image buffer attachment.
public let kCMFormatDescriptionExtension_YCbCrMatrix = kCVImageBufferYCbCrMatrixKey

extension CMFormatDescription {
    /// What the format itself says about its pictures: progressive (one field), and for
    /// Y'CbCr pixel formats whether they are full range. Colour tags are not part of a
    /// capture format here (they depend on the device's colour space and travel as
    /// attachments of each pixel buffer), so they are not among the extensions.
    var videoExtensions: [String: Any]? {
        guard mediaTypeCode == kCMMediaType_Video else { return nil }
        var extensions: [String: Any] = [:]
        if let format = PixelFormat(rawValue: mediaSubTypeCode) {
            extensions[kCMFormatDescriptionExtension_FieldCount] = NSNumber(value: 1)
            if format.isYUV { extensions[kCMFormatDescriptionExtension_FullRangeVideo] = NSNumber(value: format.isFullRange) }
        }
        return extensions.isEmpty ? nil : extensions
    }
}

/// The format's extensions (see `CMFormatDescription.videoExtensions`); nil when it has none.
public func CMFormatDescriptionGetExtensions(_ desc: CMFormatDescription) -> [String: Any]? { desc.videoExtensions }

/// One extension of the format, or nil.
public func CMFormatDescriptionGetExtension(_ desc: CMFormatDescription, extensionKey: String) -> Any? {
    desc.videoExtensions?[extensionKey]
}

/// The clean aperture: the whole picture, since capture formats here have no edge
/// processing region. With `originIsAtTopLeft` false the rectangle is measured from the
/// bottom left, which for the whole picture is the same rectangle.
public func CMVideoFormatDescriptionGetCleanAperture(_ videoDesc: CMVideoFormatDescription, originIsAtTopLeft: Bool) -> CGRect {
    CGRect(x: 0, y: 0, width: Int(videoDesc.dimensions.width), height: Int(videoDesc.dimensions.height))
}

/// The extension keys a format shares with its image buffers' attachments.
public func CMVideoFormatDescriptionGetExtensionKeysCommonWithImageBuffers() -> [String] {
    [
        kCMFormatDescriptionExtension_CleanAperture, kCMFormatDescriptionExtension_FieldCount,
        kCMFormatDescriptionExtension_ColorPrimaries, kCMFormatDescriptionExtension_TransferFunction,
        kCMFormatDescriptionExtension_YCbCrMatrix,
    ]
}

/// An object attachments can be read from: a sample buffer or an image buffer.
public typealias CMAttachmentBearer = AnyObject

/// Every attachment of `target` with the given propagation mode, as a dictionary; nil
/// when it has none (or is neither a sample buffer nor an image buffer).
public func CMCopyDictionaryOfAttachments(allocator: AnyObject?, target: CMAttachmentBearer, attachmentMode: CMAttachmentMode) -> [String: Any]? {
    switch target {
    case let sampleBuffer as CMSampleBuffer:
        var result: [String: Any] = [:]
        for (key, entry) in sampleBuffer.attachments.storage where entry.mode == attachmentMode { result[key.rawValue] = entry.value }
        return result.isEmpty ? nil : result
    case let buffer as CVBuffer:
        return CVBufferCopyAttachments(buffer, attachmentMode)
    default:
        return nil
    }
}
