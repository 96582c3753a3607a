import CaptureCore
import ColorScience

/// The colour spaces a simulated camera renders in (`AVCaptureColorSpace` raw values):
/// 0 sRGB (BT.709 primaries), 1 Display P3 (P3 primaries, D65 white), 2 HLG BT.2020. sRGB
/// and P3 use the sRGB transfer curve and, for Y'CbCr, the BT.709 matrix, as Apple's P3_D65
/// capture does; only the primaries differ, so P3 keeps saturated colours that sRGB has to
/// clip. HLG uses BT.2020 primaries, the ARIB STD-B67 curve on scene-linear light (the
/// sensor's clip point is signal 1) and the BT.2020 Y'CbCr matrix, as iPhones record HLG
/// video; formats offer it only with 10-bit pixel formats.
enum OutputColorSpace {
    static let sRGB = 0
    static let displayP3 = 1
    static let hlgBT2020 = 2

    /// Camera → linear output RGB: `toSRGB` (camera → linear sRGB) followed, for P3 and
    /// HLG, by the sRGB → P3 or → BT.2020 conversion (same white, so white stays white).
    static func matrix(_ toSRGB: Matrix3x3, colorSpace: Int) -> Matrix3x3 {
        switch colorSpace {
        case displayP3: RGBColorSpace.sRGB.conversionMatrix(to: .displayP3) * toSRGB
        case hlgBT2020: RGBColorSpace.sRGB.conversionMatrix(to: .hlgBT2020) * toSRGB
        default: toSRGB
        }
    }

    /// The colour attachments of buffers in `colorSpace`: primaries ITU_R_709_2, P3_D65 or
    /// ITU_R_2020; the sRGB transfer function, or ITU_R_2100_HLG; for Y'CbCr the BT.709
    /// matrix, or ITU_R_2020 with HLG.
    static func attachments(for pixelFormat: PixelFormat, colorSpace: Int) -> [String: any Sendable] {
        var attachments = CaptureStream.attachments(for: pixelFormat)
        switch colorSpace {
        case displayP3:
            attachments[kCVImageBufferColorPrimariesKey] = kCVImageBufferColorPrimaries_P3_D65
        case hlgBT2020:
            attachments[kCVImageBufferColorPrimariesKey] = kCVImageBufferColorPrimaries_ITU_R_2020
            attachments[kCVImageBufferTransferFunctionKey] = kCVImageBufferTransferFunction_ITU_R_2100_HLG
            if pixelFormat.isYUV { attachments[kCVImageBufferYCbCrMatrixKey] = kCVImageBufferYCbCrMatrix_ITU_R_2020 }
        default:
            break
        }
        return attachments
    }
}
