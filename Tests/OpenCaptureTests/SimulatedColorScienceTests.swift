import ColorScience
import Testing

@testable import SimulatedCamera

/// Reference values from docs `color-and-sensor.md` §4.
@Suite("Colour science used by the simulated camera")
struct SimulatedColorScienceTests {
    @Test func sRGBTransferFunction() {
        let srgb = TransferFunction.sRGB
        #expect(abs(srgb.encode(0.18) - 0.4614) < 1e-4)
        #expect((srgb.encode(0.18) * 255).rounded() == 118)
        #expect(srgb.encode(0.0031308) == 12.92 * 0.0031308)
        #expect(abs(srgb.encode(1.0) - 1) < 1e-15)
        for v in stride(from: 0.0, through: 1.0, by: 0.01) {
            #expect(abs(srgb.decode(srgb.encode(v)) - v) < 1e-12)
            #expect(abs(TransferFunction.bt709.decode(TransferFunction.bt709.encode(v)) - v) < 1e-12)
        }
        // Linear Y of the ColorChecker neutral 5 code (121) is 0.191.
        #expect(abs(srgb.decode(121.0 / 255) - 0.191) < 1e-3)
    }

    @Test func ycbcrCoefficients() {
        let bt709 = YCbCrMatrix.bt709
        #expect(abs(bt709.kg - 0.7152) < 1e-12)
        let cb = bt709.cbCoefficients, cr = bt709.crCoefficients
        #expect(abs(cb.x + 0.114572) < 1e-6 && abs(cb.y + 0.385428) < 1e-6 && abs(cb.z - 0.5) < 1e-12)
        #expect(abs(cr.x - 0.5) < 1e-12 && abs(cr.y + 0.454153) < 1e-6 && abs(cr.z + 0.045847) < 1e-6)
        let bt601 = YCbCrMatrix.bt601
        #expect(abs(bt601.cbCoefficients.x + 0.168736) < 1e-6)
        #expect(abs(bt601.crCoefficients.y + 0.418688) < 1e-6)
        let rgb = SIMD3<Double>(0.3, 0.6, 0.9)
        let back = bt709.rgb(fromYCbCr: bt709.ycbcr(fromRGB: rgb))
        let error = back - rgb
        #expect((error * error).max() < 1e-24)
        // Inverse coefficients: R' = Y' + 1.5748 Cr, B' = Y' + 1.8556 Cb.
        #expect(abs(bt709.rgb(fromYCbCr: SIMD3(0, 0, 1)).x - 1.5748) < 1e-12)
        #expect(abs(bt709.rgb(fromYCbCr: SIMD3(0, 1, 0)).z - 1.8556) < 1e-12)
    }

    @Test func codeRanges() {
        #expect(YCbCrRange.video.lumaCode(0) == 16 && YCbCrRange.video.lumaCode(1) == 235)
        #expect(YCbCrRange.video.chromaCode(-0.5) == 16 && YCbCrRange.video.chromaCode(0.5) == 240)
        #expect(YCbCrRange.full.lumaCode(1) == 255 && YCbCrRange.full.chromaCode(0) == 128)
        #expect(YCbCrRange.full.chromaCode(0.5) == 255)
        #expect(YCbCrRange.video.lumaCode(1, bitDepth: 10) == 940)
    }

    @Test func primariesMatrices() {
        let m = RGBPrimaries.sRGB.rgbToXYZ
        let expected = Matrix3x3(rowMajor: [
            0.4123908, 0.3575843, 0.1804808, 0.2126390, 0.7151687, 0.0721923, 0.0193308, 0.1191948, 0.9505322,
        ])
        #expect(m.isApproximatelyEqual(to: expected, tolerance: 1e-6))
        let inverse = Matrix3x3(rowMajor: [
            3.2409699, -1.5373832, -0.4986108, -0.9692436, 1.8759675, 0.0415551, 0.0556301, -0.2039770, 1.0569715,
        ])
        #expect(RGBPrimaries.sRGB.xyzToRGB.isApproximatelyEqual(to: inverse, tolerance: 1e-6))
        let p3 = Matrix3x3(rowMajor: [
            0.4865709, 0.2656677, 0.1982173, 0.2289746, 0.6917385, 0.0792869, 0.0, 0.0451134, 1.0439444,
        ])
        #expect(RGBPrimaries.displayP3.rgbToXYZ.isApproximatelyEqual(to: p3, tolerance: 1e-6))
        #expect((m * SIMD3(1, 1, 1) - Chromaticity.d65.xyz()).max() < 1e-12)
    }

    /// The ISP's packed fixed-point Y'CbCr matches the floating-point reference.
    @Test(arguments: YCbCrRange.allCases)
    func packedYCbCrMatchesReference(range: YCbCrRange) {
        let layout = PackedYCbCr(matrix: .bt709, range: range)
        var rng = SplitMix64(seed: 3)
        for _ in 0..<2000 {
            var pixels: [SIMD3<Double>] = []
            var block: UInt64 = 0
            for _ in 0..<4 {
                let rgb = SIMD3(rng.nextUnit(), rng.nextUnit(), rng.nextUnit())
                pixels.append(rgb)
                let sum = (0..<3).reduce(UInt64(0)) { $0 &+ layout.entry(channel: $1, signal: rgb[$1]) }
                block &+= sum
                let reference = range.lumaCode(YCbCrMatrix.bt709.ycbcr(fromRGB: rgb).x)
                #expect(abs(Int(layout.luma(sum)) - reference) <= 1)
            }
            let mean = YCbCrMatrix.bt709.ycbcr(fromRGB: pixels.reduce(.zero, +) / 4)
            #expect(abs(Int(layout.cb(block)) - range.chromaCode(mean.y)) <= 1)
            #expect(abs(Int(layout.cr(block)) - range.chromaCode(mean.z)) <= 1)
        }
        // Extremes: white, black and the most saturated chroma stay in range.
        let white = (0..<3).reduce(UInt64(0)) { $0 &+ layout.entry(channel: $1, signal: 1) }
        #expect(Int(layout.luma(white)) == range.lumaCode(1))
        #expect(layout.cb(white &* 4) == 128 && layout.cr(white &* 4) == 128)
        let blue = layout.entry(channel: 2, signal: 1) &+ layout.entry(channel: 0, signal: 0) &+ layout.entry(channel: 1, signal: 0)
        #expect(Int(layout.cb(blue &* 4)) == range.chromaCode(0.5))
    }
}
