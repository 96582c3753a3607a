import Foundation

/// Stands in for Core Foundation's default allocator; Linux has one allocator.
public var kCFAllocatorDefault: AnyObject? { nil }

/// Creates a pixel buffer of the given size and format.
///
/// Supported formats: 420v, 420f, y420, f420 and BGRA. Rows are aligned to 64 bytes.
@discardableResult
@_disfavoredOverload
public func CVPixelBufferCreate(
    _ allocator: AnyObject?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
    _ pixelBufferAttributes: [String: Any]?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard width > 0, height > 0 else { return kCVReturnInvalidSize }
    guard let format = PixelFormat(rawValue: pixelFormatType) else { return kCVReturnInvalidPixelFormat }
    pixelBufferOut.pointee = CVBuffer(format: format, width: width, height: height)
    return kCVReturnSuccess
}

/// Makes the pixels reachable through the base-address functions.
@discardableResult
public func CVPixelBufferLockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.lock()
    return kCVReturnSuccess
}

/// Ends a lock taken with `CVPixelBufferLockBaseAddress`; the flags must match.
@discardableResult
public func CVPixelBufferUnlockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ unlockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.unlock() ? kCVReturnSuccess : kCVReturnUnlockedWithoutLock
}

/// The width of the buffer in pixels.
public func CVPixelBufferGetWidth(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.width }
/// The height of the buffer in pixels.
public func CVPixelBufferGetHeight(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.height }
/// The pixel format, a FourCC such as `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange`.
public func CVPixelBufferGetPixelFormatType(_ pixelBuffer: CVPixelBuffer) -> OSType { pixelBuffer.format.rawValue }
/// The number of planes: 2 for 420v/420f, 3 for y420/f420, 0 for packed formats such as BGRA.
public func CVPixelBufferGetPlaneCount(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.format.planeCount }
/// Whether the buffer has more than one plane.
public func CVPixelBufferIsPlanar(_ pixelBuffer: CVPixelBuffer) -> Bool { pixelBuffer.format.planeCount > 0 }
/// The size of the buffer's memory in bytes.
public func CVPixelBufferGetDataSize(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.byteCount }

/// The first byte of a packed buffer, or of the first plane; `nil` unless locked.
public func CVPixelBufferGetBaseAddress(_ pixelBuffer: CVPixelBuffer) -> UnsafeMutableRawPointer? {
    pixelBuffer.isLocked ? pixelBuffer.planeAddress(0) : nil
}

/// Bytes per row of a packed buffer, or of the first plane.
public func CVPixelBufferGetBytesPerRow(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.bytesPerRow(0) }

/// The first byte of a plane; `nil` unless locked or when the plane does not exist.
public func CVPixelBufferGetBaseAddressOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> UnsafeMutableRawPointer? {
    guard pixelBuffer.isLocked, pixelBuffer.planes.indices.contains(planeIndex), pixelBuffer.format.planeCount > 0 else {
        return nil
    }
    return pixelBuffer.planeAddress(planeIndex)
}

/// Bytes per row of a plane (a multiple of 64), or 0 when the plane does not exist.
public func CVPixelBufferGetBytesPerRowOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    guard pixelBuffer.format.planeCount > 0, pixelBuffer.planes.indices.contains(planeIndex) else { return 0 }
    return pixelBuffer.planes[planeIndex].bytesPerRow
}

/// Width of a plane in samples (chroma planes of 4:2:0 formats are half width), 0 if absent.
public func CVPixelBufferGetWidthOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    guard pixelBuffer.format.planeCount > 0, pixelBuffer.planes.indices.contains(planeIndex) else { return 0 }
    return pixelBuffer.planes[planeIndex].width
}

/// Height of a plane in rows (chroma planes of 4:2:0 formats are half height), 0 if absent.
public func CVPixelBufferGetHeightOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    guard pixelBuffer.format.planeCount > 0, pixelBuffer.planes.indices.contains(planeIndex) else { return 0 }
    return pixelBuffer.planes[planeIndex].height
}

/// Attachment keys that describe a buffer's colour, as Core Video names them.
public let kCVImageBufferColorPrimariesKey = "CVImageBufferColorPrimaries"
public let kCVImageBufferTransferFunctionKey = "CVImageBufferTransferFunction"
public let kCVImageBufferYCbCrMatrixKey = "CVImageBufferYCbCrMatrix"
public let kCVImageBufferColorPrimaries_ITU_R_709_2 = "ITU_R_709_2"
public let kCVImageBufferColorPrimaries_P3_D65 = "P3_D65"
public let kCVImageBufferTransferFunction_ITU_R_709_2 = "ITU_R_709_2"
public let kCVImageBufferTransferFunction_sRGB = "IEC_sRGB"
public let kCVImageBufferYCbCrMatrix_ITU_R_709_2 = "ITU_R_709_2"
public let kCVImageBufferYCbCrMatrix_ITU_R_601_4 = "ITU_R_601_4"

/// How an attachment travels when a buffer is copied.
public enum CVAttachmentMode: UInt32, Sendable {
    case shouldNotPropagate = 0
    case shouldPropagate = 1
}

/// Reads one attachment of a buffer, such as `kCVImageBufferYCbCrMatrixKey`.
public func CVBufferCopyAttachment(_ buffer: CVBuffer, _ key: String, _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?) -> Any? {
    let value: (any Sendable)? = buffer.attachmentStore.withLock { $0[key] }
    if value != nil { attachmentMode?.pointee = buffer.attachmentModes.withLock { $0[key] } ?? .shouldPropagate }
    return value.map(AppAttachment.unwrap)
}

/// Sets one attachment of a buffer, replacing any with the same key. Any value is accepted,
/// as Core Video accepts any CF object (`dictionary as NSDictionary`, a string, a number).
public func CVBufferSetAttachment(_ buffer: CVBuffer, _ key: String, _ value: Any, _ attachmentMode: CVAttachmentMode) {
    let stored = AppAttachment.wrap(value)
    buffer.attachmentStore.withLock { $0[key] = stored }
    buffer.attachmentModes.withLock { $0[key] = attachmentMode == .shouldPropagate ? nil : attachmentMode }
}

/// The attachments of a buffer that have `attachmentMode`; nil when there are none.
public func CVBufferCopyAttachments(_ buffer: CVBuffer, _ attachmentMode: CVAttachmentMode) -> [String: Any]? {
    let all: [String: any Sendable] = buffer.attachmentStore.withLock { $0 }
    let modes = buffer.attachmentModes.withLock { $0 }
    var result: [String: Any] = [:]
    for (key, value) in all where (modes[key] ?? .shouldPropagate) == attachmentMode { result[key] = AppAttachment.unwrap(value) }
    return result.isEmpty ? nil : result
}

/// An attachment value an app set whose type is not known to be shareable between threads.
/// Core Video hands attachments to any thread that holds the buffer, as CF objects are; the
/// app's value is kept as given and only handed back, never mutated here.
struct AppAttachment: @unchecked Sendable {
    let value: Any

    /// Strings are stored as they are (the library's own readers look for the colour tag
    /// strings); anything else in a box.
    static func wrap(_ value: Any) -> any Sendable {
        if let string = value as? String { return string }
        if let box = value as? AppAttachment { return box }
        return AppAttachment(value: value)
    }

    static func unwrap(_ stored: any Sendable) -> Any {
        (stored as? AppAttachment)?.value ?? stored
    }
}
