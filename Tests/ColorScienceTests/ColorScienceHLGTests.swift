import Foundation
import Testing

@testable import ColorScience

/// BT.2100 HLG: the ARIB STD-B67 curve, BT.2020 primaries and Y'CbCr matrix.
@Suite("ColorScience: HLG and BT.2020")
struct ColorScienceHLGTests {
    /// BT.2100 table 5: E' = √(3E) up to E = 1/12 (E' = 0.5 there), a·ln(12E − b) + c
    /// above, E' = 1 at E = 1; the inverse undoes it.
    @Test func hlgOETFReferenceValues() {
        let hlg = TransferFunction.hlg
        #expect(abs(hlg.encode(1.0 / 12) - 0.5) < 1e-12)
        #expect(abs(hlg.encode(1.0) - 1.0) < 1e-7)
        #expect(hlg.encode(0.0) == 0)
        #expect(abs(hlg.encode(1.0 / 48) - 0.25) < 1e-12)
        // The log segment at 18 % grey: 0.17883277·ln(12·0.18 − 0.28466892) + 0.55991073.
        #expect(abs(hlg.encode(0.18) - (0.17883277 * log(12 * 0.18 - 0.28466892) + 0.55991073)) < 1e-7)
        // Continuous and rising across the knee.
        #expect(abs(hlg.encode(1.0 / 12 + 1e-9) - hlg.encode(1.0 / 12)) < 1e-7)
        for i in 0...1000 {
            let linear = Double(i) / 1000
            #expect(abs(hlg.decode(hlg.encode(linear)) - linear) < 1e-12)
        }
    }

    /// BT.2020's RGB → XYZ (D65), as published to four decimals; its luminance row is the
    /// BT.2020 Y'CbCr weights.
    @Test func bt2020Matrix() {
        let published = Matrix3x3(rowMajor: [0.6370, 0.1446, 0.1689, 0.2627, 0.6780, 0.0593, 0.0000, 0.0281, 1.0610])
        #expect(RGBColorSpace.hlgBT2020.toXYZ.isApproximatelyEqual(to: published, tolerance: 1e-4))
        #expect(RGBColorSpace.hlgBT2020.transferFunction == .hlg)
        #expect(YCbCrMatrix.bt2020.kr == 0.2627 && YCbCrMatrix.bt2020.kb == 0.0593)
        // sRGB → BT.2020 keeps white and is the wider gamut: pure sRGB red is inside it.
        let toBT2020 = RGBColorSpace.sRGB.conversionMatrix(to: .hlgBT2020)
        let white = toBT2020 * SIMD3(1, 1, 1)
        #expect(abs(white.x - 1) < 1e-9 && abs(white.y - 1) < 1e-9 && abs(white.z - 1) < 1e-9)
        let red = toBT2020 * SIMD3(1, 0, 0)
        #expect(red.x > 0 && red.y > 0 && red.z > 0 && abs(red.x - 0.6274) < 1e-3)
    }
}
