import Foundation

/// Whether a buffer has an attachment for `key`.
public func CVBufferHasAttachment(_ buffer: CVBuffer, _ key: String) -> Bool {
    buffer.attachmentStore.withLock { $0[key] != nil }
}

/// Removes one attachment of a buffer.
public func CVBufferRemoveAttachment(_ buffer: CVBuffer, _ key: String) {
    buffer.attachmentStore.withLock { $0[key] = nil }
    buffer.attachmentModes.withLock { $0[key] = nil }
}

/// Removes every attachment of a buffer.
public func CVBufferRemoveAllAttachments(_ buffer: CVBuffer) {
    buffer.attachmentStore.withLock { $0.removeAll() }
    buffer.attachmentModes.withLock { $0.removeAll() }
}

/// Sets several attachments at once, all with `attachmentMode`.
@_disfavoredOverload
public func CVBufferSetAttachments(_ buffer: CVBuffer, _ theAttachments: [String: Any], _ attachmentMode: CVAttachmentMode) {
    for (key, value) in theAttachments { CVBufferSetAttachment(buffer, key, value, attachmentMode) }
}

/// Copies the source buffer's propagating attachments (`shouldPropagate`) onto the destination.
public func CVBufferPropagateAttachments(_ sourceBuffer: CVBuffer, _ destinationBuffer: CVBuffer) {
    let all: [String: any Sendable] = sourceBuffer.attachmentStore.withLock { $0 }
    let modes = sourceBuffer.attachmentModes.withLock { $0 }
    for (key, value) in all where modes[key] == nil {
        CVBufferSetAttachment(destinationBuffer, key, value, .shouldPropagate)
    }
}

/// Reads one attachment without a copy (deprecated in iOS 15 for `CVBufferCopyAttachment`).
/// The object stays valid while the buffer has the attachment, as Core Video's "get" rule
/// says; `takeUnretainedValue()` gives it (`as? String` for the colour tags).
@available(*, deprecated, renamed: "CVBufferCopyAttachment")
public func CVBufferGetAttachment(
    _ buffer: CVBuffer, _ key: String, _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?
) -> Unmanaged<AnyObject>? {
    guard let value = CVBufferCopyAttachment(buffer, key, attachmentMode) else { return nil }
    let object = value as AnyObject
    buffer.attachmentObjects.withLock { $0[key] = AttachmentObject(object: object) }
    return Unmanaged.passUnretained(object)
}

/// An attachment's object kept alive for `CVBufferGetAttachment`.
package struct AttachmentObject: @unchecked Sendable {
    let object: AnyObject
}
