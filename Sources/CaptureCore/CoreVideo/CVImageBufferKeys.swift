// The rest of CVImageBuffer.h's attachment keys and values, with Core Video's names and
// string values (the colour tags OpenCapture itself sets are in CVPixelBufferFunctions.swift
// and BT2020Attachments.swift). Frames from the cameras carry the colour tags; the geometry
// keys (clean aperture, pixel aspect ratio, display dimensions) are read by
// `CVImageBufferGetCleanRect` and `CVImageBufferGetDisplaySize` when an app sets them.

// MARK: Geometry

/// The clean aperture: a dictionary of `kCVImageBufferCleanApertureWidthKey`, `…HeightKey`,
/// `…HorizontalOffsetKey` and `…VerticalOffsetKey` (offsets from the picture's centre).
public let kCVImageBufferCleanApertureKey = "CVCleanAperture"
/// The clean aperture the producer prefers, in the same form.
public let kCVImageBufferPreferredCleanApertureKey = "CVPreferredCleanAperture"
/// The clean aperture's width in pixels (a number).
public let kCVImageBufferCleanApertureWidthKey = "Width"
/// The clean aperture's height in pixels (a number).
public let kCVImageBufferCleanApertureHeightKey = "Height"
/// How far right of the picture's centre the clean aperture's centre lies.
public let kCVImageBufferCleanApertureHorizontalOffsetKey = "HorizontalOffset"
/// How far below the picture's centre the clean aperture's centre lies.
public let kCVImageBufferCleanApertureVerticalOffsetKey = "VerticalOffset"
/// Fields per frame (1 for progressive video).
public let kCVImageBufferFieldCountKey = "CVFieldCount"
/// The order and layout of interlaced fields.
public let kCVImageBufferFieldDetailKey = "CVFieldDetail"
public let kCVImageBufferFieldDetailTemporalTopFirst = "TemporalTopFirst"
public let kCVImageBufferFieldDetailTemporalBottomFirst = "TemporalBottomFirst"
public let kCVImageBufferFieldDetailSpatialFirstLineEarly = "SpatialFirstLineEarly"
public let kCVImageBufferFieldDetailSpatialFirstLineLate = "SpatialFirstLineLate"
/// The pixel aspect ratio: a dictionary of horizontal and vertical spacing.
public let kCVImageBufferPixelAspectRatioKey = "CVPixelAspectRatio"
public let kCVImageBufferPixelAspectRatioHorizontalSpacingKey = "HorizontalSpacing"
public let kCVImageBufferPixelAspectRatioVerticalSpacingKey = "VerticalSpacing"
/// The size to display the picture at: a dictionary of width and height.
public let kCVImageBufferDisplayDimensionsKey = "CVDisplayDimensions"
public let kCVImageBufferDisplayWidthKey = "Width"
public let kCVImageBufferDisplayHeightKey = "Height"

// MARK: Colour

/// A gamma level (a number), used with `kCVImageBufferTransferFunction_UseGamma`.
public let kCVImageBufferGammaLevelKey = "CVImageBufferGammaLevel"
/// An ICC profile (data).
public let kCVImageBufferICCProfileKey = "CVImageBufferICCProfile"
/// A colour space object.
public let kCVImageBufferCGColorSpaceKey = "CVImageBufferCGColorSpace"

public let kCVImageBufferYCbCrMatrix_SMPTE_240M_1995 = "SMPTE_240M_1995"
public let kCVImageBufferYCbCrMatrix_DCI_P3 = "YCbCrMatrix_DCI_P3"
public let kCVImageBufferYCbCrMatrix_P3_D65 = "YCbCrMatrix_P3_D65"

public let kCVImageBufferColorPrimaries_EBU_3213 = "EBU_3213"
public let kCVImageBufferColorPrimaries_SMPTE_C = "SMPTE_C"
public let kCVImageBufferColorPrimaries_P22 = "P22"
public let kCVImageBufferColorPrimaries_DCI_P3 = "DCI_P3"

public let kCVImageBufferTransferFunction_SMPTE_240M_1995 = "SMPTE_240M_1995"
public let kCVImageBufferTransferFunction_UseGamma = "UseGamma"
// (kCVImageBufferTransferFunction_EBU_3213 and _SMPTE_C are macOS-only, never on iOS.)
public let kCVImageBufferTransferFunction_ITU_R_2020 = "ITU_R_2020"
public let kCVImageBufferTransferFunction_SMPTE_ST_428_1 = "SMPTE_ST_428_1"
public let kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ = "SMPTE_ST_2084_PQ"
public let kCVImageBufferTransferFunction_Linear = "Linear"

/// Apple Log, the log encoding of ProRes Log recording (a value of
/// `kCVImageBufferLogTransferFunctionKey`). No camera here records it.
public let kCVImageBufferLogTransferFunctionKey = "CVImageBufferLogTransferFunction"
public let kCVImageBufferLogTransferFunction_AppleLog = "AppleLog"

/// HDR metadata: the mastering display's colour volume (24 bytes, SMPTE ST 2086).
public let kCVImageBufferMasteringDisplayColorVolumeKey = "CVImageBufferMasteringDisplayColorVolume"
/// HDR metadata: content light level (4 bytes, CEA-861.3).
public let kCVImageBufferContentLightLevelInfoKey = "CVImageBufferContentLightLevelInfo"
/// The viewing environment the content was graded for (8 bytes, ISO/IEC 23008-2).
public let kCVImageBufferAmbientViewingEnvironmentKey = "CVImageBufferAmbientViewingEnvironment"

// MARK: Chroma

/// Where chroma samples sit in the top field (or the frame).
public let kCVImageBufferChromaLocationTopFieldKey = "CVImageBufferChromaLocationTopField"
/// Where chroma samples sit in the bottom field.
public let kCVImageBufferChromaLocationBottomFieldKey = "CVImageBufferChromaLocationBottomField"
public let kCVImageBufferChromaLocation_Left = "Left"
public let kCVImageBufferChromaLocation_Center = "Center"
public let kCVImageBufferChromaLocation_TopLeft = "TopLeft"
public let kCVImageBufferChromaLocation_Top = "Top"
public let kCVImageBufferChromaLocation_BottomLeft = "BottomLeft"
public let kCVImageBufferChromaLocation_Bottom = "Bottom"
public let kCVImageBufferChromaLocation_DV420 = "DV 4:2:0"
/// How chroma was subsampled when the picture came from a subsampled source.
public let kCVImageBufferChromaSubsamplingKey = "CVImageBufferChromaSubsampling"
public let kCVImageBufferChromaSubsampling_420 = "4:2:0"
public let kCVImageBufferChromaSubsampling_422 = "4:2:2"
public let kCVImageBufferChromaSubsampling_411 = "4:1:1"

// MARK: Alpha and other

/// Whether the alpha channel is all opaque (a Boolean).
public let kCVImageBufferAlphaChannelIsOpaque = "CVImageBufferAlphaChannelIsOpaque"
/// Whether alpha is straight or premultiplied.
public let kCVImageBufferAlphaChannelModeKey = "CVImageBufferAlphaChannelMode"
public let kCVImageBufferAlphaChannelMode_StraightAlpha = "StraightAlpha"
public let kCVImageBufferAlphaChannelMode_PremultipliedAlpha = "PremultipliedAlpha"
/// The camera's intrinsic matrix (data of a 3×3 float matrix). No camera here attaches it
/// (`AVCaptureConnection.isCameraIntrinsicMatrixDeliverySupported` is false).
public let kCVImageBufferCameraIntrinsicMatrixKey = "CVImageBufferCameraIntrinsicMatrix"
/// A region of interest (a rectangle dictionary).
public let kCVImageBufferRegionOfInterestKey = "CVImageBufferRegionOfInterest"

// MARK: CVBuffer.h

/// A buffer's movie time: a dictionary of `kCVBufferTimeValueKey` and `kCVBufferTimeScaleKey`.
public let kCVBufferMovieTimeKey = "MovieTime"
/// The value of a movie time.
public let kCVBufferTimeValueKey = "TimeValue"
/// The timescale of a movie time.
public let kCVBufferTimeScaleKey = "TimeScale"
