import Foundation

// The Swift overlay's names for the buffer-level attachment keys:
// `sampleBuffer.attachments[.forceKeyFrame]`, `CMSampleBuffer.AttachmentKey.droppedFrameReason`.

extension CMSampleBuffer {
    /// Keys of buffer-level attachments (the `kCMSampleBufferAttachmentKey_*` strings), as
    /// the Swift overlay's `CMSampleBuffer.AttachmentKey`.
    public typealias AttachmentKey = CMAttachmentBearerAttachments.Key
}

extension CMAttachmentBearerAttachments.Key {
    /// `kCMSampleBufferAttachmentKey_ResetDecoderBeforeDecoding`.
    public static let resetDecoderBeforeDecoding = Self(kCMSampleBufferAttachmentKey_ResetDecoderBeforeDecoding)
    /// `kCMSampleBufferAttachmentKey_DrainAfterDecoding`.
    public static let drainAfterDecoding = Self(kCMSampleBufferAttachmentKey_DrainAfterDecoding)
    /// `kCMSampleBufferAttachmentKey_PostNotificationWhenConsumed`.
    public static let postNotificationWhenConsumed = Self(kCMSampleBufferAttachmentKey_PostNotificationWhenConsumed)
    /// `kCMSampleBufferAttachmentKey_ResumeOutput`.
    public static let resumeOutput = Self(kCMSampleBufferAttachmentKey_ResumeOutput)
    /// `kCMSampleBufferAttachmentKey_TransitionID`.
    public static let transitionID = Self(kCMSampleBufferAttachmentKey_TransitionID)
    /// `kCMSampleBufferAttachmentKey_TrimDurationAtStart`.
    public static let trimDurationAtStart = Self(kCMSampleBufferAttachmentKey_TrimDurationAtStart)
    /// `kCMSampleBufferAttachmentKey_TrimDurationAtEnd`.
    public static let trimDurationAtEnd = Self(kCMSampleBufferAttachmentKey_TrimDurationAtEnd)
    /// `kCMSampleBufferAttachmentKey_SpeedMultiplier`.
    public static let speedMultiplier = Self(kCMSampleBufferAttachmentKey_SpeedMultiplier)
    /// `kCMSampleBufferAttachmentKey_Reverse`.
    public static let reverse = Self(kCMSampleBufferAttachmentKey_Reverse)
    /// `kCMSampleBufferAttachmentKey_FillDiscontinuitiesWithSilence`.
    public static let fillDiscontinuitiesWithSilence = Self(kCMSampleBufferAttachmentKey_FillDiscontinuitiesWithSilence)
    /// `kCMSampleBufferAttachmentKey_EmptyMedia`.
    public static let emptyMedia = Self(kCMSampleBufferAttachmentKey_EmptyMedia)
    /// `kCMSampleBufferAttachmentKey_PermanentEmptyMedia`.
    public static let permanentEmptyMedia = Self(kCMSampleBufferAttachmentKey_PermanentEmptyMedia)
    /// `kCMSampleBufferAttachmentKey_DisplayEmptyMediaImmediately`.
    public static let displayEmptyMediaImmediately = Self(kCMSampleBufferAttachmentKey_DisplayEmptyMediaImmediately)
    /// `kCMSampleBufferAttachmentKey_EndsPreviousSampleDuration`.
    public static let endsPreviousSampleDuration = Self(kCMSampleBufferAttachmentKey_EndsPreviousSampleDuration)
    /// `kCMSampleBufferAttachmentKey_SampleReferenceURL`.
    public static let sampleReferenceURL = Self(kCMSampleBufferAttachmentKey_SampleReferenceURL)
    /// `kCMSampleBufferAttachmentKey_SampleReferenceByteOffset`.
    public static let sampleReferenceByteOffset = Self(kCMSampleBufferAttachmentKey_SampleReferenceByteOffset)
    /// `kCMSampleBufferAttachmentKey_GradualDecoderRefresh`.
    public static let gradualDecoderRefresh = Self(kCMSampleBufferAttachmentKey_GradualDecoderRefresh)
    /// `kCMSampleBufferAttachmentKey_DroppedFrameReasonInfo`.
    public static let droppedFrameReasonInfo = Self(kCMSampleBufferAttachmentKey_DroppedFrameReasonInfo)
    /// `kCMSampleBufferAttachmentKey_StillImageLensStabilizationInfo`.
    public static let stillImageLensStabilizationInfo = Self(kCMSampleBufferAttachmentKey_StillImageLensStabilizationInfo)
    /// `kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix`.
    public static let cameraIntrinsicMatrix = Self(kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix)
    /// `kCMSampleBufferAttachmentKey_ForceKeyFrame`.
    public static let forceKeyFrame = Self(kCMSampleBufferAttachmentKey_ForceKeyFrame)
}

extension CMAttachmentBearerAttachments {
    /// The attachment for a key string (the overlay's `subscript(key: String)`).
    public subscript(key: String) -> Value? {
        get { self[Key(key)] }
        set { self[Key(key)] = newValue }
    }
}
