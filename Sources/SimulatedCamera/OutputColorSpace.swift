import CaptureCore
import ColorScience

/// The colour spaces a simulated camera renders in (`AVCaptureColorSpace` raw values):
/// 0 sRGB (BT.709 primaries), 1 Display P3 (P3 primaries, D65 white). Both use the sRGB
/// transfer curve and, for Y'CbCr, the BT.709 matrix, as Apple's P3_D65 capture does;
/// only the primaries differ, so P3 keeps saturated colours that sRGB has to clip.
enum OutputColorSpace {
    static let sRGB = 0
    static let displayP3 = 1

    /// Camera → linear output RGB: `toSRGB` (camera → linear sRGB) followed, for P3, by the
    /// sRGB → P3 conversion (same white, so white stays white).
    static func matrix(_ toSRGB: Matrix3x3, colorSpace: Int) -> Matrix3x3 {
        guard colorSpace == displayP3 else { return toSRGB }
        return RGBColorSpace.sRGB.conversionMatrix(to: .displayP3) * toSRGB
    }

    /// The colour attachments of buffers in `colorSpace`: primaries ITU_R_709_2 or P3_D65,
    /// the sRGB transfer function, and for Y'CbCr the BT.709 matrix.
    static func attachments(for pixelFormat: PixelFormat, colorSpace: Int) -> [String: any Sendable] {
        var attachments = CaptureStream.attachments(for: pixelFormat)
        if colorSpace == displayP3 { attachments[kCVImageBufferColorPrimariesKey] = kCVImageBufferColorPrimaries_P3_D65 }
        return attachments
    }
}
