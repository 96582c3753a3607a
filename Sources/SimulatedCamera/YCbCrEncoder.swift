import CaptureCore
import ColorScience

/// Fixed-point R'G'B' → Y'CbCr 8-bit coefficients for one output format.
///
/// Inputs are the ISP's tone-curve codes (R' × `ISP.one`). Luma is
/// `(ry·R' + gy·G' + by·B' + yOffset) >> 16`; chroma takes the *sums* of a 2×2 block (4:2:0
/// by averaging; averaging R'G'B' then converting equals averaging Cb, Cr as the transform
/// is linear) and is `(rc·ΣR' + gc·ΣG' + bc·ΣB' + cOffset) >> 16`. The offsets include
/// the code offset (16 or 0 for luma, 128 for chroma) and half a code for rounding.
struct YCbCrEncoder: Sendable, Equatable {
    var ry: Int32, gy: Int32, by: Int32, yOffset: Int32
    var rcb: Int32, gcb: Int32, bcb: Int32
    var rcr: Int32, gcr: Int32, bcr: Int32
    var cOffset: Int32

    init(matrix: YCbCrMatrix, range: YCbCrRange) {
        let fixed = 65536.0
        let lumaScale = range.lumaScale() / Double(ISP.one) * fixed
        let chromaScale = range.chromaScale() / Double(4 * ISP.one) * fixed
        let y = matrix.lumaCoefficients * lumaScale
        let cb = matrix.cbCoefficients * chromaScale
        let cr = matrix.crCoefficients * chromaScale
        ry = Int32(y.x.rounded())
        by = Int32(y.z.rounded())
        // Green takes the rounding remainder so that white maps exactly to the top code.
        gy = Int32((lumaScale - y.x.rounded() - y.z.rounded()).rounded())
        yOffset = Int32(range.lumaOffset() * fixed + fixed / 2)
        // Chroma weights sum to zero, so a neutral block lands exactly on the zero code.
        rcb = Int32(cb.x.rounded())
        bcb = Int32(cb.z.rounded())
        gcb = -(rcb + bcb)
        rcr = Int32(cr.x.rounded())
        bcr = Int32(cr.z.rounded())
        gcr = -(rcr + bcr)
        cOffset = Int32(range.chromaOffset() * fixed + fixed / 2)
    }

    /// The encoder for a pixel format's range, BT.709 matrix.
    init(format: PixelFormat) {
        self.init(matrix: .bt709, range: format.isFullRange ? .full : .video)
    }

    @inline(__always)
    func luma(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min((ry &* r &+ gy &* g &+ by &* b &+ yOffset) >> 16, 255))
    }

    @inline(__always)
    func cb(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max((rcb &* r &+ gcb &* g &+ bcb &* b &+ cOffset) >> 16, 0), 255))
    }

    @inline(__always)
    func cr(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max((rcr &* r &+ gcr &* g &+ bcr &* b &+ cOffset) >> 16, 0), 255))
    }
}
