import ColorScience

/// Y', Cb and Cr contributions packed into one 64-bit word, so that adding words adds all
/// three at once (SIMD within a register).
///
/// Fields, in units of 1/1024 of an 8-bit code: Y' in bits 0–19, Cb in bits 20–40, Cr
/// in bits 41–61. A table entry holds one channel's term (weight × R'/G'/B' × range
/// scale); chroma terms carry a bias of 2¹⁷ each, more than any negative term, so no field
/// goes below zero. Sums stay inside their fields: a pixel (3 entries) has Y' ≤ 255·1024
/// < 2¹⁸, and a 2×2 block (12 entries) has Y' < 2²⁰ and chroma 12·2¹⁷ ± 4·127.5·1024,
/// inside 0 ..< 2²¹; so no field carries into the next.
struct PackedYCbCr: Sendable, Equatable {
    static let fraction = 1024.0
    static let bias: UInt64 = 1 << 17
    static let chromaShift: UInt64 = 20
    static let crShift: UInt64 = 41
    static let lumaMask: UInt64 = (1 << 20) - 1
    static let chromaMask: UInt64 = (1 << 21) - 1

    /// Weights of each channel's R'/G'/B' per field, in field units.
    private let luma: SIMD3<Double>
    private let cbWeights: SIMD3<Double>
    private let crWeights: SIMD3<Double>
    /// Added before the final shift: the code offset plus half a code, minus biases.
    private let lumaRounding: Int
    private let chromaRounding: Int

    init(matrix: YCbCrMatrix, range: YCbCrRange) {
        let f = PackedYCbCr.fraction
        luma = matrix.lumaCoefficients * (range.lumaScale() * f)
        cbWeights = matrix.cbCoefficients * (range.chromaScale() * f)
        crWeights = matrix.crCoefficients * (range.chromaScale() * f)
        lumaRounding = Int(range.lumaOffset() * f + f / 2)
        // A block sums 4 pixels of 3 biased entries; its field is 4× the mean chroma.
        chromaRounding = Int(range.chromaOffset() * 4 * f + 2 * f) - 12 * Int(PackedYCbCr.bias)
    }

    /// The table entry of `channel` (0 R, 1 G, 2 B) for the non-linear signal `signal`.
    func entry(channel: Int, signal: Double) -> UInt64 {
        let y = UInt64(max(0, (luma[channel] * signal).rounded()))
        let cb = UInt64(Int64(PackedYCbCr.bias) + Int64((cbWeights[channel] * signal).rounded()))
        let cr = UInt64(Int64(PackedYCbCr.bias) + Int64((crWeights[channel] * signal).rounded()))
        return y | cb << PackedYCbCr.chromaShift | cr << PackedYCbCr.crShift
    }

    /// The 8-bit luma code of a pixel sum.
    @inline(__always)
    func luma(_ pixel: UInt64) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int(pixel & PackedYCbCr.lumaMask) &+ lumaRounding) &>> 10)
    }

    /// The 8-bit Cb code of a 2×2 block sum.
    @inline(__always)
    func cb(_ block: UInt64) -> UInt8 {
        chroma(Int((block &>> PackedYCbCr.chromaShift) & PackedYCbCr.chromaMask))
    }

    /// The 8-bit Cr code of a 2×2 block sum.
    @inline(__always)
    func cr(_ block: UInt64) -> UInt8 {
        chroma(Int((block &>> PackedYCbCr.crShift) & PackedYCbCr.chromaMask))
    }

    @inline(__always)
    private func chroma(_ field: Int) -> UInt8 {
        // Full-range chroma of +0.5 is code 255.5; clip rather than wrap.
        UInt8(truncatingIfNeeded: min((field &+ chromaRounding) &>> 12, 255))
    }
}
