import CRenderKernels
import CaptureCore

/// Converts BGRA to 4:2:0 Y'CbCr with the BT.709 matrix (or another, by its weights), in
/// video or full range.
///
/// This libyuv (1857) converts RGB to YUV only with BT.601 (`ARGBToI420`, `ARGBToNV12`) or
/// BT.601 full (`ARGBToJ420`) and has no matrix-taking variant, while the decoding side
/// uses libyuv's BT.709 constants. Encoding here keeps both directions on one matrix.
/// Integer arithmetic with 16 fractional bits; chroma is the mean of each 2x2 block,
/// repeating the last column or row of odd-sized images.
struct BT709Encoder {
    private static let fractionBits = 16
    private let yR: Int, yG: Int, yB: Int, yBias: Int
    private let uR: Int, uG: Int, uB: Int
    private let vR: Int, vG: Int, vB: Int
    private let cBias: Int

    /// Coefficients for BT.709 (Kr 0.2126, Kb 0.0722) in the given range.
    init(fullRange: Bool) { self.init(kr: 0.2126, kb: 0.0722, fullRange: fullRange) }

    /// Coefficients for another matrix, by its luma weights of red and blue (BT.601: 0.299
    /// and 0.114; BT.2020: 0.2627 and 0.0593), in the given range.
    init(kr: Double, kb: Double, fullRange: Bool) {
        let one = Double(1 << BT709Encoder.fractionBits)
        let lumaScale = fullRange ? 1 : 219.0 / 255.0
        let chromaScale = fullRange ? 1 : 224.0 / 255.0
        func fixed(_ value: Double) -> Int { Int((value * one).rounded()) }
        yR = fixed(kr * lumaScale)
        yB = fixed(kb * lumaScale)
        // Derived so the three sum to exactly white, and the chroma rows to exactly zero.
        yG = fixed(lumaScale) - yR - yB
        uR = fixed(-kr / (2 * (1 - kb)) * chromaScale)
        uB = fixed(0.5 * chromaScale)
        uG = -uR - uB
        vR = fixed(0.5 * chromaScale)
        vB = fixed(-kb / (2 * (1 - kr)) * chromaScale)
        vG = -vR - vB
        // Offset plus one half for rounding.
        yBias = ((fullRange ? 0 : 16) << BT709Encoder.fractionBits) + (1 << (BT709Encoder.fractionBits - 1))
        // Chroma is computed on sums of four pixels: two more fractional bits.
        cBias = (128 << (BT709Encoder.fractionBits + 2)) + (1 << (BT709Encoder.fractionBits + 1))
    }


    /// Encodes a BGRA picture of `width` x `height`. `sourceStride` may be negative
    /// (with `source` on the last row) to read the picture upside down. `u` and `v`
    /// advance by `chromaStep` per sample: 1 for I420 planes, 2 for interleaved NV12.
    /// Row pairs go through the C kernel `oc_bgra_to_yuv709_row_pair` (linked as optimised
    /// assembly, so a debug build converts a 720p frame in well under a frame's time).
    func encode(
        source: UnsafePointer<UInt8>, sourceStride: Int, width: Int, height: Int,
        y: UnsafeMutablePointer<UInt8>, yStride: Int,
        u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, chromaStride: Int, chromaStep: Int
    ) {
        // The coefficients in the kernel's order, on the stack: this runs for every frame.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 11) { k in
            (k[0], k[1], k[2], k[3]) = (yR, yG, yB, yBias)
            (k[4], k[5], k[6], k[7], k[8], k[9], k[10]) = (uR, uG, uB, vR, vG, vB, cBias)
            for row in stride(from: 0, to: height, by: 2) {
                let hasSecondRow = row + 1 < height
                let top = source + row * sourceStride
                let yTop = y + row * yStride
                oc_bgra_to_yuv709_row_pair(
                    top, hasSecondRow ? top + sourceStride : top, width, k.baseAddress, yTop, hasSecondRow ? yTop + yStride : nil,
                    u + (row / 2) * chromaStride, v + (row / 2) * chromaStride, chromaStep)
            }
        }
    }
}
