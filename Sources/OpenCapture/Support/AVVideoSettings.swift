// The video settings keys of AVVideoSettings.h that asset-writer code uses, with Apple's
// string values. AVVideoCodecKey, the size keys and AverageBitRate are in AVVideoCodecType.swift.

/// How frames of another size are fitted to the output size (`String`, the key's values below).
public let AVVideoScalingModeKey = "AVVideoScalingModeKey"
/// Crop to remove edge processing region, then scale down (Apple raises for asset writers).
public let AVVideoScalingModeFit = "AVVideoScalingModeFit"
/// Stretch to the output size.
public let AVVideoScalingModeResize = "AVVideoScalingModeResize"
/// Keep the aspect ratio, letterboxing with black.
public let AVVideoScalingModeResizeAspect = "AVVideoScalingModeResizeAspect"
/// Keep the aspect ratio, cropping what does not fit.
public let AVVideoScalingModeResizeAspectFill = "AVVideoScalingModeResizeAspectFill"

/// The profile and level inside the compression properties (`String`, values below).
public let AVVideoProfileLevelKey = "ProfileLevel"
public let AVVideoProfileLevelH264Baseline30 = "H264_Baseline_3_0"
public let AVVideoProfileLevelH264Baseline31 = "H264_Baseline_3_1"
public let AVVideoProfileLevelH264Baseline41 = "H264_Baseline_4_1"
public let AVVideoProfileLevelH264BaselineAutoLevel = "H264_Baseline_AutoLevel"
public let AVVideoProfileLevelH264Main30 = "H264_Main_3_0"
public let AVVideoProfileLevelH264Main31 = "H264_Main_3_1"
public let AVVideoProfileLevelH264Main32 = "H264_Main_3_2"
public let AVVideoProfileLevelH264Main41 = "H264_Main_4_1"
public let AVVideoProfileLevelH264MainAutoLevel = "H264_Main_AutoLevel"
public let AVVideoProfileLevelH264High40 = "H264_High_4_0"
public let AVVideoProfileLevelH264High41 = "H264_High_4_1"
public let AVVideoProfileLevelH264HighAutoLevel = "H264_High_AutoLevel"

/// The most frames between keyframes (`Int`; 1 makes every frame a keyframe).
public let AVVideoMaxKeyFrameIntervalKey = "MaxKeyFrameInterval"
/// The most seconds between keyframes (`Double`).
public let AVVideoMaxKeyFrameIntervalDurationKey = "MaxKeyFrameIntervalDuration"
/// Whether frames may be reordered (B-frames) (`Bool`). The encoder never makes B-frames
/// here, which either value allows.
public let AVVideoAllowFrameReorderingKey = "AllowFrameReordering"
/// The frame rate the source is expected to have (`Double`), for rate control.
public let AVVideoExpectedSourceFrameRateKey = "ExpectedFrameRate"
/// The frame rate the encoder should aim at when dropping frames (`Double`).
public let AVVideoAverageNonDroppableFrameRateKey = "AverageNonDroppableFrameRate"
