import Foundation

/// How an attachment propagates, as Core Media's `CMAttachmentMode`.
public typealias CMAttachmentMode = CVAttachmentMode
public let kCMAttachmentMode_ShouldNotPropagate = CMAttachmentMode.shouldNotPropagate
public let kCMAttachmentMode_ShouldPropagate = CMAttachmentMode.shouldPropagate

/// The sample-buffer attachment giving why a frame was dropped (a `String`).
public let kCMSampleBufferAttachmentKey_DroppedFrameReason = "DroppedFrameReason"
/// The frame was dropped because it was late.
public let kCMSampleBufferDroppedFrameReason_FrameWasLate = "FrameWasLate"
/// The frame was dropped because the module providing frames was out of buffers.
public let kCMSampleBufferDroppedFrameReason_OutOfBuffers = "OutOfBuffers"
/// An unknown number of frames were lost.
public let kCMSampleBufferDroppedFrameReason_Discontinuity = "Discontinuity"

/// The sample-buffer attachment carrying the camera's intrinsic matrix (a `Data` of a
/// 3×3 float matrix). No output here attaches it
/// (`AVCaptureConnection.isCameraIntrinsicMatrixDeliverySupported` is false).
public let kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix = "CameraIntrinsicMatrix"

/// The attachments of a sample buffer, as `CMSampleBuffer.attachments` in Apple's Swift overlay.
public struct CMAttachmentBearerAttachments: Sendable {
    /// An attachment key.
    public struct Key: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// `kCMSampleBufferAttachmentKey_DroppedFrameReason`.
        public static let droppedFrameReason = Key(kCMSampleBufferAttachmentKey_DroppedFrameReason)
    }

    /// An attachment value and how it propagates.
    public struct Value: @unchecked Sendable {
        public var value: Any
        public var mode: CMAttachmentMode
        public init(value: Any, mode: CMAttachmentMode) {
            self.value = value
            self.mode = mode
        }
    }

    package var storage: [Key: Value] = [:]

    public subscript(key: Key) -> Value? {
        get { storage[key] }
        set { storage[key] = newValue }
    }

    /// How many attachments there are.
    public var count: Int { storage.count }
    /// All the keys.
    public var keys: [Key] { Array(storage.keys) }
}

// CMAttachment.h: the attachments of any attachment bearer (a sample buffer, or an image
// buffer through Core Video's attachments), with `String` keys (the `kCMSampleBufferAttachmentKey_*`
// and `kCVImageBuffer*` constants) or `CFString` ones (`"Key" as CFString`).

/// Reads one attachment of a sample buffer or image buffer, e.g.
/// `kCMSampleBufferAttachmentKey_DroppedFrameReason`; nil when it has none (or `target` is
/// neither).
public func CMGetAttachment(_ target: CMAttachmentBearer, key: String, attachmentModeOut: UnsafeMutablePointer<CMAttachmentMode>?) -> Any? {
    switch target {
    case let sampleBuffer as CMSampleBuffer:
        guard let entry = sampleBuffer.attachments[.init(key)] else { return nil }
        attachmentModeOut?.pointee = entry.mode
        return entry.value
    case let buffer as CVBuffer:
        return CVBufferCopyAttachment(buffer, key, attachmentModeOut)
    default:
        return nil
    }
}

/// Reads one attachment under a `CFString` key (see the `String` form).
public func CMGetAttachment(_ target: CMAttachmentBearer, key: CFString, attachmentModeOut: UnsafeMutablePointer<CMAttachmentMode>?) -> Any? {
    CMGetAttachment(target, key: key as String, attachmentModeOut: attachmentModeOut)
}

/// Sets one attachment of a sample buffer or image buffer; a nil value removes it.
public func CMSetAttachment(_ target: CMAttachmentBearer, key: String, value: Any?, attachmentMode: CMAttachmentMode) {
    switch target {
    case let sampleBuffer as CMSampleBuffer:
        sampleBuffer.withState { $0.attachments[.init(key)] = value.map { .init(value: $0, mode: attachmentMode) } }
    case let buffer as CVBuffer:
        if let value { CVBufferSetAttachment(buffer, key, value, attachmentMode) } else { CVBufferRemoveAttachment(buffer, key) }
    default:
        break
    }
}

/// Sets one attachment under a `CFString` key (see the `String` form).
public func CMSetAttachment(_ target: CMAttachmentBearer, key: CFString, value: Any?, attachmentMode: CMAttachmentMode) {
    CMSetAttachment(target, key: key as String, value: value, attachmentMode: attachmentMode)
}

/// Removes one attachment; nothing happens when there is none.
public func CMRemoveAttachment(_ target: CMAttachmentBearer, key: String) {
    CMSetAttachment(target, key: key, value: nil, attachmentMode: .shouldPropagate)
}

/// Removes one attachment under a `CFString` key (see the `String` form).
public func CMRemoveAttachment(_ target: CMAttachmentBearer, key: CFString) {
    CMRemoveAttachment(target, key: key as String)
}

/// Removes every attachment of a sample buffer or image buffer.
public func CMRemoveAllAttachments(_ target: CMAttachmentBearer) {
    switch target {
    case let sampleBuffer as CMSampleBuffer:
        sampleBuffer.withState { $0.attachments.storage.removeAll() }
    case let buffer as CVBuffer:
        CVBufferRemoveAllAttachments(buffer)
    default:
        break
    }
}

/// Sets every key-value pair of `theAttachments` (string keys) as an attachment with `attachmentMode`.
public func CMSetAttachments(_ target: CMAttachmentBearer, attachments theAttachments: CFDictionary, attachmentMode: CMAttachmentMode) {
    for case let (key as String, value) in theAttachments {
        CMSetAttachment(target, key: key, value: value, attachmentMode: attachmentMode)
    }
}

/// Copies the propagating attachments (`kCMAttachmentMode_ShouldPropagate`) of `source` onto
/// `destination`, replacing values it has for the same keys; its other attachments stay.
public func CMPropagateAttachments(_ source: CMAttachmentBearer, destination: CMAttachmentBearer) {
    guard let propagating = CMCopyDictionaryOfAttachments(allocator: nil, target: source, attachmentMode: .shouldPropagate) else { return }
    for (key, value) in propagating { CMSetAttachment(destination, key: key, value: value, attachmentMode: .shouldPropagate) }
}
