import Foundation

// CMSampleBuffer.h's attachment keys (iOS 18 SDK). Each value is the name's suffix, as
// Core Media's own strings are. Per-sample keys (kCMSampleAttachmentKey_*) go in the
// dictionaries of CMSampleBufferGetSampleAttachmentsArray and are `CFString`s (NSString);
// buffer-level keys (kCMSampleBufferAttachmentKey_*) go to CMSetAttachment/CMGetAttachment,
// whose keys are `String`s in this module.

// MARK: Per-sample attachment keys

/// `kCFBooleanTrue`: the sample is not a sync sample (not a keyframe); absent means sync.
public nonisolated(unsafe) let kCMSampleAttachmentKey_NotSync: CFString = "NotSync"
/// `kCFBooleanTrue`: the sample is a partial sync sample (decoding can start here after a
/// previous full sync sample). Implies NotSync.
public nonisolated(unsafe) let kCMSampleAttachmentKey_PartialSync: CFString = "PartialSync"
/// `kCFBooleanTrue`/`kCFBooleanFalse`: whether the sample has redundant coding.
public nonisolated(unsafe) let kCMSampleAttachmentKey_HasRedundantCoding: CFString = "HasRedundantCoding"
/// `kCFBooleanTrue`/`kCFBooleanFalse`: whether other samples depend on this one (false: droppable).
public nonisolated(unsafe) let kCMSampleAttachmentKey_IsDependedOnByOthers: CFString = "IsDependedOnByOthers"
/// `kCFBooleanTrue`/`kCFBooleanFalse`: whether this sample depends on others (false: an I-frame).
public nonisolated(unsafe) let kCMSampleAttachmentKey_DependsOnOthers: CFString = "DependsOnOthers"
/// `kCFBooleanTrue`: later samples in decode order may have earlier display times.
public nonisolated(unsafe) let kCMSampleAttachmentKey_EarlierDisplayTimesAllowed: CFString = "EarlierDisplayTimesAllowed"
/// `kCFBooleanTrue`: a renderer should display the sample as soon as it is decoded.
public nonisolated(unsafe) let kCMSampleAttachmentKey_DisplayImmediately: CFString = "DisplayImmediately"
/// `kCFBooleanTrue`: the sample is decoded but not displayed.
public nonisolated(unsafe) let kCMSampleAttachmentKey_DoNotDisplay: CFString = "DoNotDisplay"
/// A dictionary (the `kCMHEVCTemporalLevelInfoKey_*` keys) of an HEVC sample's temporal level.
public nonisolated(unsafe) let kCMSampleAttachmentKey_HEVCTemporalLevelInfo: CFString = "HEVCTemporalLevelInfo"
/// `kCFBooleanTrue`: the HEVC sample is a temporal sub-layer access picture.
public nonisolated(unsafe) let kCMSampleAttachmentKey_HEVCTemporalSubLayerAccess: CFString = "HEVCTemporalSubLayerAccess"
/// `kCFBooleanTrue`: the HEVC sample is a step-wise temporal sub-layer access picture.
public nonisolated(unsafe) let kCMSampleAttachmentKey_HEVCStepwiseTemporalSubLayerAccess: CFString = "HEVCStepwiseTemporalSubLayerAccess"
/// A number: the NAL unit type of an HEVC sync sample.
public nonisolated(unsafe) let kCMSampleAttachmentKey_HEVCSyncSampleNALUnitType: CFString = "HEVCSyncSampleNALUnitType"
/// A number: present on independent or immediate-playout audio samples.
public nonisolated(unsafe) let kCMSampleAttachmentKey_AudioIndependentSampleDecoderRefreshCount: CFString = "AudioIndependentSampleDecoderRefreshCount"
/// Data: the protected and unprotected ranges of a protected sample.
public nonisolated(unsafe) let kCMSampleAttachmentKey_CryptorSubsampleAuxiliaryData: CFString = "CryptorSubsampleAuxiliaryData"
/// Data: the sample's HDR10+ (SMPTE ST 2094-40) metadata as ITU-T T.35 bytes.
public nonisolated(unsafe) let kCMSampleAttachmentKey_HDR10PlusPerFrameData: CFString = "HDR10PlusPerFrameData"
/// A dictionary of post-decode processing metadata (Apple declares it for macOS 15).
public nonisolated(unsafe) let kCMSampleAttachmentKey_PostDecodeProcessingMetadata: CFString = "PostDecodeProcessingMetadata"

/// Keys of the `kCMSampleAttachmentKey_HEVCTemporalLevelInfo` dictionary.
public nonisolated(unsafe) let kCMHEVCTemporalLevelInfoKey_TemporalLevel: CFString = "TemporalLevel"
public nonisolated(unsafe) let kCMHEVCTemporalLevelInfoKey_ProfileSpace: CFString = "ProfileSpace"
public nonisolated(unsafe) let kCMHEVCTemporalLevelInfoKey_TierFlag: CFString = "TierFlag"
public nonisolated(unsafe) let kCMHEVCTemporalLevelInfoKey_ProfileIndex: CFString = "ProfileIndex"
public nonisolated(unsafe) let kCMHEVCTemporalLevelInfoKey_ProfileCompatibilityFlags: CFString = "ProfileCompatibilityFlags"
public nonisolated(unsafe) let kCMHEVCTemporalLevelInfoKey_ConstraintIndicatorFlags: CFString = "ConstraintIndicatorFlags"
public nonisolated(unsafe) let kCMHEVCTemporalLevelInfoKey_LevelIndex: CFString = "LevelIndex"

// MARK: Buffer-level attachment keys

/// `kCFBooleanTrue`: reset the decoder before decoding this buffer.
public let kCMSampleBufferAttachmentKey_ResetDecoderBeforeDecoding = "ResetDecoderBeforeDecoding"
/// `kCFBooleanTrue`: drain the decoder after decoding this buffer.
public let kCMSampleBufferAttachmentKey_DrainAfterDecoding = "DrainAfterDecoding"
/// A dictionary to post as `kCMSampleBufferConsumerNotification_BufferConsumed` once consumed.
public let kCMSampleBufferAttachmentKey_PostNotificationWhenConsumed = "PostNotificationWhenConsumed"
/// A number: resume output after an inhibit-output notification with this tag.
public let kCMSampleBufferAttachmentKey_ResumeOutput = "ResumeOutput"
/// A number identifying a transition between segments.
public let kCMSampleBufferAttachmentKey_TransitionID = "TransitionID"
/// A CMTime dictionary: how much of the start of the buffer to trim.
public let kCMSampleBufferAttachmentKey_TrimDurationAtStart = "TrimDurationAtStart"
/// A CMTime dictionary: how much of the end of the buffer to trim.
public let kCMSampleBufferAttachmentKey_TrimDurationAtEnd = "TrimDurationAtEnd"
/// A number: the playback speed multiplier of the buffer.
public let kCMSampleBufferAttachmentKey_SpeedMultiplier = "SpeedMultiplier"
/// `kCFBooleanTrue`: the buffer plays in reverse.
public let kCMSampleBufferAttachmentKey_Reverse = "Reverse"
/// `kCFBooleanTrue`: fill gaps before this audio buffer with silence.
public let kCMSampleBufferAttachmentKey_FillDiscontinuitiesWithSilence = "FillDiscontinuitiesWithSilence"
/// `kCFBooleanTrue`: the buffer marks a time with no media.
public let kCMSampleBufferAttachmentKey_EmptyMedia = "EmptyMedia"
/// `kCFBooleanTrue`: no media follows this empty-media marker.
public let kCMSampleBufferAttachmentKey_PermanentEmptyMedia = "PermanentEmptyMedia"
/// `kCFBooleanTrue`: show the empty media immediately.
public let kCMSampleBufferAttachmentKey_DisplayEmptyMediaImmediately = "DisplayEmptyMediaImmediately"
/// `kCFBooleanTrue`: this buffer ends the previous sample's duration.
public let kCMSampleBufferAttachmentKey_EndsPreviousSampleDuration = "EndsPreviousSampleDuration"
/// A URL: the file the samples' data is in (sample references).
public let kCMSampleBufferAttachmentKey_SampleReferenceURL = "SampleReferenceURL"
/// A number: the byte offset of the samples' data in that file.
public let kCMSampleBufferAttachmentKey_SampleReferenceByteOffset = "SampleReferenceByteOffset"
/// A number: how many frames a gradual decoder refresh takes.
public let kCMSampleBufferAttachmentKey_GradualDecoderRefresh = "GradualDecoderRefresh"
/// A string saying more about a dropped frame (`kCMSampleBufferDroppedFrameReasonInfo_*`).
public let kCMSampleBufferAttachmentKey_DroppedFrameReasonInfo = "DroppedFrameReasonInfo"
/// A string (`kCMSampleBufferLensStabilizationInfo_*`): the lens stabilization of a still image.
public let kCMSampleBufferAttachmentKey_StillImageLensStabilizationInfo = "StillImageLensStabilizationInfo"
/// `kCFBooleanTrue`: an encoder given this buffer makes its frame a keyframe. An
/// `AVAssetWriterInput` honours it.
public let kCMSampleBufferAttachmentKey_ForceKeyFrame = "ForceKeyFrame"

/// The frame was dropped because the camera was switching modes (for example to a photo
/// format).
public let kCMSampleBufferDroppedFrameReasonInfo_CameraModeSwitch = "CameraModeSwitch"

/// Lens stabilization was active for the still image.
public let kCMSampleBufferLensStabilizationInfo_Active = "Active"
/// The motion was out of the stabilization's range.
public let kCMSampleBufferLensStabilizationInfo_OutOfRange = "OutOfRange"
/// Lens stabilization was unavailable.
public let kCMSampleBufferLensStabilizationInfo_Unavailable = "Unavailable"
/// Lens stabilization was off.
public let kCMSampleBufferLensStabilizationInfo_Off = "Off"
