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

    /// The ISP kernels' sRGB curve (polynomials for log₂ and exp₂) is within 0.04 of an
    /// 8-bit code of the exact curve, and its 8-bit codes never step down.
    @Test func kernelToneCurveMatchesSRGB() {
        var worst = 0.0
        var previousCode = 0
        for step in 0...200_000 {
            let linear = Double(step) / 200_000
            let approx = Double(ISP.encode(Float(linear)))
            worst = max(worst, abs(approx - TransferFunction.sRGB.encode(linear)) * 255)
            let code = Int((approx * 255).rounded())
            #expect(code >= previousCode, "code steps down at \(linear)")
            previousCode = code
        }
        #expect(worst < 0.04, "worst error \(worst) codes")
        #expect(ISP.encode(0) == 0)
        #expect(ISP.encode(-1) == 0 && abs(ISP.encode(2) - 1) < 0.04 / 255)
    }

    /// White, black and the most saturated chroma stay in range through the Y'CbCr kernel.
    @Test(arguments: YCbCrRange.allCases)
    func yCbCrKernelExtremes(range: YCbCrRange) {
        let isp = ISP()
        // 10-bit codes, black 64, identity gains and matrix: code 1023 is white.
        isp.apply(
            ISP.Settings(
                bitDepth: 10, blackLevel: 64, whiteDN: 959, digitalGain: 1, whiteBalance: SIMD3(repeating: 1),
                colorMatrix: .identity, range: range))
        func encode(_ rgb: SIMD3<UInt16>) -> (luma: Int, cb: Int, cr: Int) {
            let row: [UInt16] = [rgb.x, rgb.x, rgb.y, rgb.y, rgb.z, rgb.z]
            var luma = [UInt8](repeating: 0, count: 4), chroma = [UInt8](repeating: 0, count: 2)
            luma.withUnsafeMutableBufferPointer { l in
                chroma.withUnsafeMutableBufferPointer { c in
                    isp.encodeRowPair(
                        row, row, width: 2, lumaA: l.baseAddress!, lumaB: l.baseAddress! + 2, cb: c.baseAddress!,
                        cr: c.baseAddress! + 1, chromaStep: 2)
                }
            }
            #expect(Set(luma).count == 1)
            return (Int(luma[0]), Int(chroma[0]), Int(chroma[1]))
        }
        let white = encode(SIMD3(1023, 1023, 1023))
        #expect(white.luma == range.lumaCode(1) && white.cb == 128 && white.cr == 128)
        let black = encode(SIMD3(64, 64, 64))
        #expect(black.luma == range.lumaCode(0) && black.cb == 128 && black.cr == 128)
        let blue = encode(SIMD3(64, 64, 1023))
        #expect(blue.cb == range.chromaCode(0.5))
        let red = encode(SIMD3(1023, 64, 64))
        #expect(red.cr == range.chromaCode(0.5))
    }
}
