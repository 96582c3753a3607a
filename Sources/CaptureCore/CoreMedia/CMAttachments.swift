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
