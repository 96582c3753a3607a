import Foundation
import Testing

@testable import ColorScience

/// RGB colour spaces, chromatic adaptation, the sRGB curve and Y'CbCr (docs
/// `color-and-sensor.md` §4).
@Suite("ColorScience: RGB spaces, adaptation and Y'CbCr")
struct ColorScienceRGBTests {
    static let sRGBToXYZ = Matrix3x3(rowMajor: [
        0.4123908, 0.3575843, 0.1804808, 0.2126390, 0.7151687, 0.0721923, 0.0193308, 0.1191948, 0.9505322,
    ])
    static let xyzToSRGB = Matrix3x3(rowMajor: [
        3.2409699, -1.5373832, -0.4986108, -0.9692436, 1.8759675, 0.0415551, 0.0556301, -0.2039770, 1.0569715,
    ])
    static let p3ToXYZ = Matrix3x3(rowMajor: [
        0.4865709, 0.2656677, 0.1982173, 0.2289746, 0.6917385, 0.0792869, 0.0000000, 0.0451134, 1.0439444,
    ])
    static let xyzToP3 = Matrix3x3(rowMajor: [
        2.4934969, -0.9313836, -0.4027108, -0.8294890, 1.7626641, 0.0236247, 0.0358458, -0.0761724, 0.9568845,
    ])
    static let p3ToSRGB = Matrix3x3(rowMajor: [
        1.2249402, -0.2249402, 0, -0.0420570, 1.0420570, 0, -0.0196376, -0.0786360, 1.0982736,
    ])
    static let bradfordD50ToD65 = Matrix3x3(rowMajor: [
        0.9554734, -0.0230985, 0.0632592, -0.0283697, 1.0099954, 0.0210414, 0.0123140, -0.0205076, 1.3303659,
    ])

    @Test func matricesFromPrimaries() {
        let tolerance = 5e-7 + 1e-12
        #expect(RGBColorSpace.sRGB.toXYZ.isApproximatelyEqual(to: Self.sRGBToXYZ, tolerance: tolerance))
        #expect(RGBColorSpace.sRGB.fromXYZ.isApproximatelyEqual(to: Self.xyzToSRGB, tolerance: tolerance))
        #expect(RGBColorSpace.displayP3.toXYZ.isApproximatelyEqual(to: Self.p3ToXYZ, tolerance: tolerance))
        #expect(RGBColorSpace.displayP3.fromXYZ.isApproximatelyEqual(to: Self.xyzToP3, tolerance: tolerance))
        #expect(RGBColorSpace.displayP3.conversionMatrix(to: .sRGB).isApproximatelyEqual(to: Self.p3ToSRGB, tolerance: tolerance))
        // IEC's printed 4-decimal matrix is the rounding of the derived one.
        let iec = Matrix3x3(rowMajor: [0.4124, 0.3576, 0.1805, 0.2126, 0.7152, 0.0722, 0.0193, 0.1192, 0.9505])
        #expect(RGBColorSpace.sRGB.toXYZ.isApproximatelyEqual(to: iec, tolerance: 5e-5))
        // White maps to white, and to/from are inverses.
        for space in [RGBColorSpace.sRGB, .displayP3] {
            let white = space.toXYZ * SIMD3(1, 1, 1)
            #expect(abs(white.y - 1) < 1e-12)
            #expect((space.fromXYZ * space.toXYZ).isApproximatelyEqual(to: .identity, tolerance: 1e-12))
            #expect(space.transferFunction == .sRGB)
            #expect(space.white == .d65)
        }
        #expect(RGBColorSpace.sRGB.conversionMatrix(to: .sRGB).isApproximatelyEqual(to: .identity, tolerance: 1e-12))
        #expect(RGBPrimaries.sRGB.luminanceCoefficients == RGBColorSpace.sRGB.toXYZ.rows.1)
    }

    @Test func bradford() {
        let m = ChromaticAdaptation.bradford(from: .d50, to: .d65)
        #expect(m.isApproximatelyEqual(to: Self.bradfordD50ToD65, tolerance: 5e-7 + 1e-12))
        // It maps the source white onto the destination white, and back.
        let mapped = m * Chromaticity.d50.xyz()
        #expect(abs(mapped.x - Chromaticity.d65.xyz().x) < 1e-12 && abs(mapped.z - Chromaticity.d65.xyz().z) < 1e-12)
        let back = ChromaticAdaptation.bradford(from: .d65, to: .d50)
        #expect((back * m).isApproximatelyEqual(to: .identity, tolerance: 1e-12))
        #expect(ChromaticAdaptation.bradford(from: .d65, to: .d65).isApproximatelyEqual(to: .identity, tolerance: 1e-15))
        // Composition through a third white is exact for a von Kries transform.
        let a = StandardIlluminant.a.chromaticity
        let viaA = ChromaticAdaptation.bradford(from: a, to: .d65) * ChromaticAdaptation.bradford(from: .d50, to: a)
        #expect(viaA.isApproximatelyEqual(to: m, tolerance: 1e-12))
        // A Bradford P3 → sRGB conversion between different whites.
        let d50Space = RGBColorSpace(
            primaries: RGBPrimaries(red: RGBPrimaries.sRGB.red, green: RGBPrimaries.sRGB.green, blue: RGBPrimaries.sRGB.blue, white: .d50),
            transferFunction: .linear)
        let white = d50Space.conversionMatrix(to: .sRGB) * SIMD3(1, 1, 1)
        #expect(abs(white.x - 1) < 1e-12 && abs(white.y - 1) < 1e-12 && abs(white.z - 1) < 1e-12)
    }

    @Test func sRGBTransfer() {
        let f = TransferFunction.sRGB
        #expect(abs(f.encode(0.18) - 0.461) < 5e-4)
        #expect((f.encode(0.18) * 255).rounded() == 118)
        #expect(f.encode(0.002) == 12.92 * 0.002)
        #expect(abs(f.encode(0.5) - (1.055 * pow(0.5, 1 / 2.4) - 0.055)) < 1e-15)
        #expect(f.decode(0.04) == 0.04 / 12.92)
        #expect(abs(f.decode(0.5) - 0.21404114048223255) < 1e-15)
        // The segments meet at L = 0.0031308 ↔ V = 0.04045 (to the published precision).
        #expect(abs(f.encode(0.0031308) - 0.04045) < 1e-6)
        #expect(abs(1.055 * pow(0.0031308, 1 / 2.4) - 0.055 - 0.04045) < 1e-6)
        let space = RGBColorSpace.sRGB
        let xyz = space.xyz(fromEncoded: SIMD3(1, 1, 1))
        #expect(abs(xyz.y - 1) < 1e-12)
        let grey = space.encoded(fromXYZ: Chromaticity.d65.xyz(luminance: 0.18))
        #expect(abs(grey.x - 0.46135) < 1e-4 && abs(grey.y - grey.x) < 1e-12 && abs(grey.z - grey.x) < 1e-12)
    }

    /// BT.601 and BT.709 equations, both directions.
    @Test(arguments: [
        (YCbCrMatrix.bt601, [-0.168736, -0.331264, 0.5], [0.5, -0.418688, -0.081312], [1.402, 0.344136, 0.714136, 1.772]),
        (YCbCrMatrix.bt709, [-0.114572, -0.385428, 0.5], [0.5, -0.454153, -0.045847], [1.5748, 0.187324, 0.468124, 1.8556]),
    ])
    func ycbcrEquations(matrix: YCbCrMatrix, cb: [Double], cr: [Double], inverse: [Double]) {
        for (k, expected) in cb.enumerated() { #expect(abs(matrix.cbCoefficients[k] - expected) < 5e-7) }
        for (k, expected) in cr.enumerated() { #expect(abs(matrix.crCoefficients[k] - expected) < 5e-7) }
        let samples: [SIMD3<Double>] = [SIMD3(0.2, 0.5, 0.8), SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(0.9, 0.4, 0.1)]
        for rgb in samples {
            let ycc = matrix.ycbcr(fromRGB: rgb)
            #expect(abs(ycc.x - (matrix.kr * rgb.x + (1 - matrix.kr - matrix.kb) * rgb.y + matrix.kb * rgb.z)) < 1e-15)
            #expect(abs(ycc.y - (cb[0] * rgb.x + cb[1] * rgb.y + cb[2] * rgb.z)) < 1e-6)
            #expect(abs(ycc.z - (cr[0] * rgb.x + cr[1] * rgb.y + cr[2] * rgb.z)) < 1e-6)
            // R' = Y' + a·Cr, G' = Y' − b·Cb − c·Cr, B' = Y' + d·Cb (published to 4–6 decimals).
            #expect(abs(rgb.x - (ycc.x + inverse[0] * ycc.z)) < 1e-6)
            #expect(abs(rgb.y - (ycc.x - inverse[1] * ycc.y - inverse[2] * ycc.z)) < 1e-6)
            #expect(abs(rgb.z - (ycc.x + inverse[3] * ycc.y)) < 1e-6)
            let back = matrix.rgb(fromYCbCr: ycc)
            #expect(abs(back.x - rgb.x) < 1e-12 && abs(back.y - rgb.y) < 1e-12 && abs(back.z - rgb.z) < 1e-12)
        }
        // White and black are neutral; primaries reach ±0.5 chroma.
        #expect(abs(matrix.ycbcr(fromRGB: SIMD3(1, 1, 1)).y) < 1e-15 && abs(matrix.ycbcr(fromRGB: SIMD3(1, 1, 1)).z) < 1e-15)
        #expect(abs(matrix.ycbcr(fromRGB: SIMD3(0, 0, 1)).y - 0.5) < 1e-15)
        #expect(abs(matrix.ycbcr(fromRGB: SIMD3(1, 0, 0)).z - 0.5) < 1e-15)
    }

    /// Video range: Y = round((219Y' + 16)·2^(n−8)), C = round((224C + 128)·2^(n−8)); full range:
    /// Y = round(255Y'), C = round(255C + 128), clipped.
    @Test func quantisation() {
        let video = YCbCrRange.video, full = YCbCrRange.full
        for y in stride(from: 0.0, through: 1.0, by: 0.01) {
            #expect(video.lumaCode(y) == Int((219 * y + 16).rounded()))
            #expect(video.lumaCode(y, bitDepth: 10) == Int(((219 * y + 16) * 4).rounded()))
            #expect(full.lumaCode(y) == Int((255 * y).rounded()))
            let c = y - 0.5
            #expect(video.chromaCode(c) == Int((224 * c + 128).rounded()))
            #expect(video.chromaCode(c, bitDepth: 10) == Int(((224 * c + 128) * 4).rounded()))
            #expect(full.chromaCode(c) == min(255, Int((255 * c + 128).rounded())))
        }
        #expect(video.lumaCode(0) == 16 && video.lumaCode(1) == 235)
        #expect(video.chromaCode(-0.5) == 16 && video.chromaCode(0.5) == 240)
        #expect(full.chromaCode(-0.5) == 1 && full.chromaCode(0.5) == 255 && full.chromaCode(0.6) == 255)
        #expect(full.lumaCode(1.2) == 255 && full.lumaCode(-0.1) == 0)
        // Decode 8-bit video range: Y' = (Y − 16)/219, C = (C − 128)/224.
        #expect(video.luma(fromCode: 126) == 110.0 / 219)
        #expect(video.chroma(fromCode: 200) == 72.0 / 224)
        #expect(full.luma(fromCode: 51) == 0.2)
    }
}

