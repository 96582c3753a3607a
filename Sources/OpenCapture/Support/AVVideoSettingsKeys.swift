/// The rest of AVVideoSettings.h's keys for video settings dictionaries, with Apple's
/// string values. The movie file output accepts `AVVideoCodecKey` and the average bit rate
/// inside `AVVideoCompressionPropertiesKey`; any other key given to it raises
/// `NSInvalidArgumentException` ("Unsupported output settings key"), as AVFoundation does
/// for keys an output does not take. Photo settings read the width and height keys.

/// Keyframe interval in frames (compression properties).
public let AVVideoMaxKeyFrameIntervalKey = "MaxKeyFrameInterval"
/// Keyframe interval as a duration in seconds (compression properties).
public let AVVideoMaxKeyFrameIntervalDurationKey = "MaxKeyFrameIntervalDuration"
/// Whether B-frames may reorder frames (compression properties).
public let AVVideoAllowFrameReorderingKey = "AllowFrameReordering"
/// The H.264 profile and level (compression properties).
public let AVVideoProfileLevelKey = "ProfileLevel"
/// The H.264 entropy coder (compression properties).
public let AVVideoH264EntropyModeKey = "H264EntropyMode"
/// CAVLC entropy coding.
public let AVVideoH264EntropyModeCAVLC = "CAVLC"
/// CABAC entropy coding.
public let AVVideoH264EntropyModeCABAC = "CABAC"
/// The frame rate the source is expected to have (compression properties).
public let AVVideoExpectedSourceFrameRateKey = "ExpectedFrameRate"
/// The average rate of frames that are not droppable (compression properties).
public let AVVideoAverageNonDroppableFrameRateKey = "AverageNonDroppableFrameRate"
/// How the source is scaled to the output size.
public let AVVideoScalingModeKey = "AVVideoScalingModeKey"
/// Crop to fit.
public let AVVideoScalingModeFit = "AVVideoScalingModeFit"
/// Scale to fit without keeping the aspect ratio.
public let AVVideoScalingModeResize = "AVVideoScalingModeResize"
/// Scale to fit, keeping the aspect ratio.
public let AVVideoScalingModeResizeAspect = "AVVideoScalingModeResizeAspect"
/// Scale to fill, keeping the aspect ratio.
public let AVVideoScalingModeResizeAspectFill = "AVVideoScalingModeResizeAspectFill"
/// The pixel aspect ratio (compression properties, or the settings themselves): a
/// dictionary of the two spacings below. The asset writer writes it as the track's sample
/// aspect ratio ('pasp').
public let AVVideoPixelAspectRatioKey = "PixelAspectRatio"
/// A pixel's width, in `AVVideoPixelAspectRatioKey` (`Int`).
public let AVVideoPixelAspectRatioHorizontalSpacingKey = "HorizontalSpacing"
/// A pixel's height, in `AVVideoPixelAspectRatioKey` (`Int`).
public let AVVideoPixelAspectRatioVerticalSpacingKey = "VerticalSpacing"
/// The clean aperture (compression properties).
public let AVVideoCleanApertureKey = "CleanAperture"
/// The colour properties: primaries, transfer function and matrix.
public let AVVideoColorPropertiesKey = "AVVideoColorPropertiesKey"
/// The colour primaries inside `AVVideoColorPropertiesKey`.
public let AVVideoColorPrimariesKey = "ColorPrimaries"
/// The transfer function inside `AVVideoColorPropertiesKey`.
public let AVVideoTransferFunctionKey = "TransferFunction"
/// The Y'CbCr matrix inside `AVVideoColorPropertiesKey`.
public let AVVideoYCbCrMatrixKey = "YCbCrMatrix"
/// BT.709 primaries (HD), for `AVVideoColorPrimariesKey`.
public let AVVideoColorPrimaries_ITU_R_709_2 = "ITU_R_709_2"
/// EBU Tech. 3213 primaries (SD, PAL).
public let AVVideoColorPrimaries_EBU_3213 = "EBU_3213"
/// SMPTE C primaries (SD, NTSC).
public let AVVideoColorPrimaries_SMPTE_C = "SMPTE_C"
/// Display P3 primaries with a D65 white (wide-gamut HD).
public let AVVideoColorPrimaries_P3_D65 = "P3_D65"
/// BT.2020 primaries (UHD, HDR).
public let AVVideoColorPrimaries_ITU_R_2020 = "ITU_R_2020"
/// The BT.709 transfer function, for `AVVideoTransferFunctionKey`.
public let AVVideoTransferFunction_ITU_R_709_2 = "ITU_R_709_2"
/// The SMPTE 240M transfer function.
public let AVVideoTransferFunction_SMPTE_240M_1995 = "SMPTE_240M_1995"
/// The SMPTE ST 2084 (PQ) transfer function, for HDR.
public let AVVideoTransferFunction_SMPTE_ST_2084_PQ = "SMPTE_ST_2084_PQ"
/// The BT.2100 hybrid log-gamma transfer function, for HDR.
public let AVVideoTransferFunction_ITU_R_2100_HLG = "ITU_R_2100_HLG"
/// No transfer function: linear light.
public let AVVideoTransferFunction_Linear = "Linear"
/// The sRGB transfer function (IEC 61966-2-1).
public let AVVideoTransferFunction_IEC_sRGB = "IEC_sRGB"
/// The BT.709 Y'CbCr matrix, for `AVVideoYCbCrMatrixKey`.
public let AVVideoYCbCrMatrix_ITU_R_709_2 = "ITU_R_709_2"
/// The BT.601 Y'CbCr matrix (SD).
public let AVVideoYCbCrMatrix_ITU_R_601_4 = "ITU_R_601_4"
/// The SMPTE 240M Y'CbCr matrix.
public let AVVideoYCbCrMatrix_SMPTE_240M_1995 = "SMPTE_240M_1995"
/// The BT.2020 non-constant-luminance Y'CbCr matrix.
public let AVVideoYCbCrMatrix_ITU_R_2020 = "ITU_R_2020"
/// Whether wide colour may be kept.
public let AVVideoAllowWideColorKey = "AVVideoAllowWideColorKey"
/// The encoder specification.
public let AVVideoEncoderSpecificationKey = "AVVideoEncoderSpecificationKey"
/// H.264 Baseline, automatic level.
public let AVVideoProfileLevelH264BaselineAutoLevel = "H264_Baseline_AutoLevel"
/// H.264 Main, automatic level.
public let AVVideoProfileLevelH264MainAutoLevel = "H264_Main_AutoLevel"
/// H.264 High, automatic level.
public let AVVideoProfileLevelH264HighAutoLevel = "H264_High_AutoLevel"

/// The fixed H.264 profile levels (asset writers take them; the encoder maps each to its profile and level).
public let AVVideoProfileLevelH264Baseline30 = "H264_Baseline_3_0"
public let AVVideoProfileLevelH264Baseline31 = "H264_Baseline_3_1"
public let AVVideoProfileLevelH264Baseline41 = "H264_Baseline_4_1"
public let AVVideoProfileLevelH264Main30 = "H264_Main_3_0"
public let AVVideoProfileLevelH264Main31 = "H264_Main_3_1"
public let AVVideoProfileLevelH264Main32 = "H264_Main_3_2"
public let AVVideoProfileLevelH264Main41 = "H264_Main_4_1"
public let AVVideoProfileLevelH264High40 = "H264_High_4_0"
public let AVVideoProfileLevelH264High41 = "H264_High_4_1"
