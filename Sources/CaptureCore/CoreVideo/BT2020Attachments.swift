// The buffer attachment values of HLG capture (AVCaptureColorSpace.HLG_BT2020), with Core
// Video's names and string values.

/// ITU-R BT.2020 primaries (wide gamut, D65 white), the value of
/// `kCVImageBufferColorPrimariesKey` for HLG frames.
public let kCVImageBufferColorPrimaries_ITU_R_2020 = "ITU_R_2020"
/// The hybrid log-gamma transfer function of ITU-R BT.2100 (ARIB STD-B67), the value of
/// `kCVImageBufferTransferFunctionKey` for HLG frames.
public let kCVImageBufferTransferFunction_ITU_R_2100_HLG = "ITU_R_2100_HLG"
/// The BT.2020 non-constant-luminance Y'CbCr matrix (Kr 0.2627, Kb 0.0593), the value of
/// `kCVImageBufferYCbCrMatrixKey` for HLG frames.
public let kCVImageBufferYCbCrMatrix_ITU_R_2020 = "ITU_R_2020"
