import Foundation

// Core Video's functions take Core Foundation dictionaries (`CFDictionary?`), so iOS code
// writes `[kCVPixelBufferIOSurfacePropertiesKey: [:]] as CFDictionary` or passes a
// `CFDictionary` it built. These are those signatures; each reads the dictionary as the
// `[String: Any]` the Swift-dictionary forms take (keys that are not strings are not Core
// Video attributes, so they are left out) and does what that form does. The Swift-dictionary
// forms stay for code that holds a `[String: Any]`; they are the disfavoured overloads, so a
// literal or `nil` means the Core Foundation form, as on Apple, and is never ambiguous.

/// An attribute dictionary as the `[String: Any]` the functions read.
package func attributeDictionary(_ dictionary: CFDictionary?) -> [String: Any]? {
    guard let dictionary else { return nil }
    var attributes: [String: Any] = [:]
    for (key, value) in dictionary {
        if let key = key as? String { attributes[key] = value }
    }
    return attributes
}

/// Creates a pixel buffer of the given size and format (`CVPixelBufferCreate` with Core
/// Foundation attributes).
@discardableResult
public func CVPixelBufferCreate(
    _ allocator: AnyObject?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
    _ pixelBufferAttributes: CFDictionary?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    CVPixelBufferCreate(allocator, width, height, pixelFormatType, attributeDictionary(pixelBufferAttributes), pixelBufferOut)
}

/// Makes a packed pixel buffer over memory you own (`CVPixelBufferCreateWithBytes` with Core
/// Foundation attributes).
@discardableResult
public func CVPixelBufferCreateWithBytes(
    _ allocator: AnyObject?, _ width: Int, _ height: Int, _ pixelFormatType: OSType, _ baseAddress: UnsafeMutableRawPointer,
    _ bytesPerRow: Int, _ releaseCallback: CVPixelBufferReleaseBytesCallback?, _ releaseRefCon: UnsafeMutableRawPointer?,
    _ pixelBufferAttributes: CFDictionary?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    CVPixelBufferCreateWithBytes(
        allocator, width, height, pixelFormatType, baseAddress, bytesPerRow, releaseCallback, releaseRefCon,
        attributeDictionary(pixelBufferAttributes), pixelBufferOut)
}

/// Makes a planar pixel buffer over planes you own (`CVPixelBufferCreateWithPlanarBytes`
/// with Core Foundation attributes).
@discardableResult
public func CVPixelBufferCreateWithPlanarBytes(
    _ allocator: AnyObject?, _ width: Int, _ height: Int, _ pixelFormatType: OSType, _ dataPtr: UnsafeMutableRawPointer?,
    _ dataSize: Int, _ numberOfPlanes: Int, _ planeBaseAddress: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
    _ planeWidth: UnsafeMutablePointer<Int>, _ planeHeight: UnsafeMutablePointer<Int>, _ planeBytesPerRow: UnsafeMutablePointer<Int>,
    _ releaseCallback: CVPixelBufferReleasePlanarBytesCallback?, _ releaseRefCon: UnsafeMutableRawPointer?,
    _ pixelBufferAttributes: CFDictionary?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    CVPixelBufferCreateWithPlanarBytes(
        allocator, width, height, pixelFormatType, dataPtr, dataSize, numberOfPlanes, planeBaseAddress, planeWidth, planeHeight,
        planeBytesPerRow, releaseCallback, releaseRefCon, attributeDictionary(pixelBufferAttributes), pixelBufferOut)
}

/// Creates a pool (`CVPixelBufferPoolCreate` with Core Foundation attributes).
@discardableResult
public func CVPixelBufferPoolCreate(
    _ allocator: AnyObject?, _ poolAttributes: CFDictionary?, _ pixelBufferAttributes: CFDictionary?,
    _ poolOut: UnsafeMutablePointer<CVPixelBufferPool?>
) -> CVReturn {
    CVPixelBufferPoolCreate(allocator, attributeDictionary(poolAttributes), attributeDictionary(pixelBufferAttributes), poolOut)
}

/// Takes a buffer from the pool within the allocation threshold
/// (`CVPixelBufferPoolCreatePixelBufferWithAuxAttributes` with Core Foundation attributes).
@discardableResult
public func CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(
    _ allocator: AnyObject?, _ pixelBufferPool: CVPixelBufferPool, _ auxAttributes: CFDictionary?,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(allocator, pixelBufferPool, attributeDictionary(auxAttributes), pixelBufferOut)
}

/// Whether `pixelBuffer` meets `attributes` (`CVPixelBufferIsCompatibleWithAttributes` with
/// Core Foundation attributes).
public func CVPixelBufferIsCompatibleWithAttributes(_ pixelBuffer: CVPixelBuffer, _ attributes: CFDictionary?) -> Bool {
    CVPixelBufferIsCompatibleWithAttributes(pixelBuffer, attributeDictionary(attributes))
}

/// Merges attribute dictionaries (`CVPixelBufferCreateResolvedAttributesDictionary` with a
/// Core Foundation array of dictionaries and a Core Foundation result). An element that is
/// not a dictionary gives `kCVReturnInvalidArgument`.
@discardableResult
public func CVPixelBufferCreateResolvedAttributesDictionary(
    _ allocator: AnyObject?, _ attributes: CFArray?, _ resolvedDictionaryOut: UnsafeMutablePointer<CFDictionary?>
) -> CVReturn {
    var dictionaries: [[String: Any]] = []
    for element in attributes ?? [] {
        guard let dictionary = element as? NSDictionary else { return kCVReturnInvalidArgument }
        dictionaries.append(attributeDictionary(dictionary) ?? [:])
    }
    var resolved: [String: Any]?
    let status = CVPixelBufferCreateResolvedAttributesDictionary(allocator, attributes == nil ? nil : dictionaries, &resolved)
    resolvedDictionaryOut.pointee = resolved.map { NSDictionary(dictionary: $0) }
    return status
}

/// Sets several attachments at once (`CVBufferSetAttachments` with a Core Foundation
/// dictionary).
public func CVBufferSetAttachments(_ buffer: CVBuffer, _ theAttachments: CFDictionary, _ attachmentMode: CVAttachmentMode) {
    CVBufferSetAttachments(buffer, attributeDictionary(theAttachments) ?? [:], attachmentMode)
}

/// Sets one attachment under a Core Foundation string key (`CVBufferSetAttachment` as iOS
/// code calls it with `"MyKey" as CFString`).
@_disfavoredOverload
public func CVBufferSetAttachment(_ buffer: CVBuffer, _ key: CFString, _ value: Any, _ attachmentMode: CVAttachmentMode) {
    CVBufferSetAttachment(buffer, key as String, value, attachmentMode)
}
