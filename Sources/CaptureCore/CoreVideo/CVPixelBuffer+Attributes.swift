import Foundation

// Attribute keys apps put in the dictionaries of `CVPixelBufferCreate` and
// `CVPixelBufferPoolCreate`. Every buffer here is plain CPU memory that any consumer can
// read and write, so the compatibility requests are met by every buffer and are accepted
// (no Metal, OpenGL or IOSurface objects exist to back them).

/// Ask for buffers Metal textures can wrap. The corresponding C constant is
/// `kCVPixelBufferMetalCompatibilityKey`.
public let kCVPixelBufferMetalCompatibilityKey = "MetalCompatibility"
/// Ask for IOSurface-backed buffers (an empty dictionary: default properties).
public let kCVPixelBufferIOSurfacePropertiesKey = "IOSurfaceProperties"
/// Ask for buffers OpenGL ES textures can wrap.
public let kCVPixelBufferOpenGLESCompatibilityKey = "OpenGLESCompatibility"
/// Ask for buffers a CGImage can be made from.
public let kCVPixelBufferCGImageCompatibilityKey = "CGImageCompatibility"
/// Ask for buffers a CGBitmapContext can draw into.
public let kCVPixelBufferCGBitmapContextCompatibilityKey = "CGBitmapContextCompatibility"
/// Extra columns on the left (extended pixels). Buffers here have none: a request for
/// them makes `CVPixelBufferIsCompatibleWithAttributes` false.
public let kCVPixelBufferExtendedPixelsLeftKey = "ExtendedPixelsLeft"
/// Extra rows on top.
public let kCVPixelBufferExtendedPixelsTopKey = "ExtendedPixelsTop"
/// Extra columns on the right.
public let kCVPixelBufferExtendedPixelsRightKey = "ExtendedPixelsRight"
/// Extra rows at the bottom.
public let kCVPixelBufferExtendedPixelsBottomKey = "ExtendedPixelsBottom"
/// Plane alignment in bytes; planes here are aligned to 64 bytes.
public let kCVPixelBufferPlaneAlignmentKey = "PlaneAlignment"
/// The key of the dictionary of attachments a buffer propagates (`CVBufferCopyAttachments(_:.shouldPropagate)`).
public let kCVBufferPropagatedAttachmentsKey = "PropagatedAttachments"
/// The key of the attachments a buffer does not propagate.
public let kCVBufferNonPropagatedAttachmentsKey = "NonPropagatedAttachments"

/// The attributes every buffer here has, for `CVPixelBufferIsCompatibleWithAttributes`
/// and `CVPixelBufferCreateResolvedAttributesDictionary`.
private let compatibilityKeys = [
    kCVPixelBufferMetalCompatibilityKey, kCVPixelBufferOpenGLESCompatibilityKey, kCVPixelBufferCGImageCompatibilityKey,
    kCVPixelBufferCGBitmapContextCompatibilityKey,
]

/// Whether `pixelBuffer` meets `attributes`: its pixel format, width and height when
/// given, no extended pixels, alignment no stricter than 64 bytes; the compatibility keys
/// and IOSurface properties are met by every buffer.
@_disfavoredOverload
public func CVPixelBufferIsCompatibleWithAttributes(_ pixelBuffer: CVPixelBuffer, _ attributes: [String: Any]?) -> Bool {
    guard let attributes else { return true }
    if let format = integer(attributes[kCVPixelBufferPixelFormatTypeKey]), OSType(truncatingIfNeeded: format) != pixelBuffer.format.rawValue {
        return false
    }
    if let width = integer(attributes[kCVPixelBufferWidthKey]), width != pixelBuffer.width { return false }
    if let height = integer(attributes[kCVPixelBufferHeightKey]), height != pixelBuffer.height { return false }
    for key in [kCVPixelBufferExtendedPixelsLeftKey, kCVPixelBufferExtendedPixelsTopKey, kCVPixelBufferExtendedPixelsRightKey, kCVPixelBufferExtendedPixelsBottomKey] {
        if let extra = integer(attributes[key]), extra > 0 { return false }
    }
    for key in [kCVPixelBufferBytesPerRowAlignmentKey, kCVPixelBufferPlaneAlignmentKey] {
        if let alignment = integer(attributes[key]), alignment > 0, CVBuffer.alignment % alignment != 0 { return false }
    }
    return true
}

/// Merges attribute dictionaries into the attributes buffers made with them have: each
/// dictionary's keys in order (later ones win), with the compatibility keys every buffer
/// meets set true.
@discardableResult
@_disfavoredOverload
public func CVPixelBufferCreateResolvedAttributesDictionary(
    _ allocator: AnyObject?, _ attributes: [[String: Any]]?, _ resolvedDictionaryOut: UnsafeMutablePointer<[String: Any]?>
) -> CVReturn {
    var resolved: [String: Any] = [:]
    for dictionary in attributes ?? [] { resolved.merge(dictionary) { _, new in new } }
    for key in compatibilityKeys { resolved[key] = NSNumber(value: true) }
    resolvedDictionaryOut.pointee = resolved
    return kCVReturnSuccess
}

/// Fills the extended pixels around the picture: buffers here have none, so there is
/// nothing to fill.
@discardableResult
public func CVPixelBufferFillExtendedPixels(_ pixelBuffer: CVPixelBuffer) -> CVReturn { kCVReturnSuccess }

/// The attachments of one propagation mode (deprecated `CVBufferGetAttachments`; use
/// `CVBufferCopyAttachments`).
@available(*, deprecated, renamed: "CVBufferCopyAttachments")
public func CVBufferGetAttachments(_ buffer: CVBuffer, _ attachmentMode: CVAttachmentMode) -> [String: Any]? {
    CVBufferCopyAttachments(buffer, attachmentMode)
}
