import Testing

@testable import ColorScience

/// The DNG camera colour model: white ↔ camera neutral ↔ gains, and the colour-correction
/// matrix (docs `color-and-sensor.md` §3, worked example [calc]).
@Suite("ColorScience: DNG camera colour model")
struct ColorScienceCameraModelTests {
    /// dcraw `adobe_coeff` "Canon EOS 5D Mark II" D65 matrix (XYZ → camera), /10000.
    static let canon5DMarkII = Matrix3x3(rowMajor: [4716, 603, -830, -7798, 15474, 2480, -1496, 1937, 6651].map { $0 / 10000 })

    static var model: CameraColorModel {
        CameraColorModel(colorMatrix1: canon5DMarkII, temperature1: 2856, colorMatrix2: canon5DMarkII, temperature2: 6504)
    }

    /// (white, R/G/B gains, tolerance) from the worked example; D65, D50, StdA are the DNG SDK
    /// constants. The doc's FL11 gains belong to xy ≈ (0.38049, 0.37716), 2.6e-4 from its own
    /// FL11 (0.38050, 0.37690) — FL11 integrated from its SPD, (0.38052, 0.37712), gives
    /// (1.9055, 1, 1.9566) — so FL11 at the CIE xy, (1.9044, 1, 1.9538), gets a looser bound.
    static let gains: [(String, Chromaticity, SIMD3<Double>, Double)] = [
        ("D65", .d65, SIMD3(2.574, 1, 1.387), 5e-4),
        ("D50", .d50, SIMD3(2.239, 1, 1.672), 5e-4),
        ("StdA", StandardIlluminant.a.dngChromaticity!, SIMD3(1.419, 1, 2.928), 5e-4),
        ("FL11", StandardIlluminant.f11.chromaticity, SIMD3(1.906, 1, 1.957), 4e-3),
    ]

    @Test(arguments: gains)
    func workedExample(name: String, white: Chromaticity, expected: SIMD3<Double>, tolerance: Double) {
        let model = Self.model
        let gains = model.gains(forWhite: white)
        for c in 0..<3 { #expect(abs(gains[c] - expected[c]) <= tolerance + 1e-9, "\(name) gain \(c): \(gains[c])") }
        #expect(gains.min() == 1)
        let back = model.white(forGains: gains)
        #expect(abs(back.x - white.x) < 1e-5 && abs(back.y - white.y) < 1e-5, "\(name): \(back)")
        // The neutral is the reciprocal, scaled to a maximum of 1.
        let neutral = model.neutral(forWhite: white)
        #expect(neutral.max() == 1)
        let product = neutral * gains
        #expect(abs(product.x - product.y) < 1e-12 && abs(product.z - product.y) < 1e-12)
        let fromNeutral = model.white(forNeutral: neutral * 7)
        #expect(abs(fromNeutral.x - white.x) < 1e-5 && abs(fromNeutral.y - white.y) < 1e-5)
    }

    @Test func d65Neutral() {
        let neutral = Self.model.neutral(forWhite: .d65)
        #expect(abs(neutral.x - 0.3885) <= 5e-5 + 1e-9 && neutral.y == 1 && abs(neutral.z - 0.7208) <= 5e-5 + 1e-9, "\(neutral)")
    }

    @Test func temperatureTintRoundTrip() {
        let model = Self.model
        for t in [2500.0, 3200, 4500, 5500, 6500, 8000] {
            for tint in [-30.0, 0, 30] {
                let gains = model.gains(for: TemperatureTint(temperature: t, tint: tint))
                let back = model.temperatureTint(forGains: gains)
                #expect(abs(back.temperature - t) / t < 2e-4 && abs(back.tint - tint) < 0.01, "\(t) K \(tint): \(back)")
            }
        }
        // Warmer light needs more blue gain and less red gain.
        let tungsten = model.gains(for: TemperatureTint(temperature: 3000, tint: 0))
        let daylight = model.gains(for: TemperatureTint(temperature: 6500, tint: 0))
        #expect(tungsten.z > daylight.z && tungsten.x < daylight.x)
    }

    /// Inverse-temperature blending of two matrices, clamped outside [T₁, T₂].
    @Test func dualIlluminantBlend() {
        let m1 = Self.canon5DMarkII
        let m2 = Matrix3x3(rowMajor: [0.7, 0.1, -0.1, -0.6, 1.5, 0.2, -0.1, 0.2, 0.6])
        let model = CameraColorModel(colorMatrix1: m2, temperature1: 6500, colorMatrix2: m1, temperature2: 2850)
        // Swapped so that T₁ < T₂.
        #expect(model.temperature1 == 2850 && model.temperature2 == 6500)
        #expect(model.weight(temperature: 2000) == 1 && model.weight(temperature: 2850) == 1)
        #expect(model.weight(temperature: 6500) == 0 && model.weight(temperature: 9000) == 0)
        let g = model.weight(temperature: 4000)
        #expect(abs(g - (1.0 / 4000 - 1.0 / 6500) / (1.0 / 2850 - 1.0 / 6500)) < 1e-15)
        let blended = model.colorMatrix(temperature: 4000)
        let expected = g * model.colorMatrix1 + (1 - g) * model.colorMatrix2
        #expect(blended.isApproximatelyEqual(to: expected, tolerance: 1e-15))
        // The white's temperature comes from DNG Robertson.
        let white = TemperatureTint(temperature: 4000, tint: 0).chromaticity
        #expect(model.colorMatrix(forWhite: white).isApproximatelyEqual(to: blended, tolerance: 1e-9))
        // NormalizeColorMatrix: max(CM · XYZ(D50)) = 1.
        for m in [model.colorMatrix1, model.colorMatrix2] {
            #expect(abs((m * Chromaticity.d50.xyz()).max() - 1) < 0.01 + 1e-12)
        }
        // Round trips still hold with different matrices.
        for (t, tint) in [(2500.0, 0.0), (3500, 10), (5000, -10), (7000, 5)] {
            let w = TemperatureTint(temperature: t, tint: tint).chromaticity
            let back = model.white(forGains: model.gains(forWhite: w))
            #expect(abs(back.x - w.x) < 1e-5 && abs(back.y - w.y) < 1e-5, "\(t) K: \(back) vs \(w)")
        }
        // Single-matrix model: the matrix is used for every white.
        let single = CameraColorModel(colorMatrix: m1)
        #expect(single.colorMatrix(temperature: 2000) == single.colorMatrix(temperature: 9000))
    }

    @Test func neutralPinning() {
        // A far-off white drives a channel below 0.001: it is pinned, gains stay finite.
        let model = Self.model
        let neutral = model.neutral(forWhite: Chromaticity(x: 0.08, y: 0.05))
        #expect(neutral.min() >= 0.001 && neutral.max() == 1)
        #expect(model.gains(forWhite: Chromaticity(x: 0.08, y: 0.05)).max() <= 1000)
    }

    /// The ISP's colour-correction matrix: balanced camera RGB → linear sRGB, neutral → (1, 1, 1).
    @Test(arguments: gains)
    func colourCorrectionMatrix(name: String, white: Chromaticity, expected: SIMD3<Double>, tolerance: Double) {
        let model = Self.model
        let ccm = model.cameraToLinearSRGB(forWhite: white)
        let one = ccm * SIMD3(1, 1, 1)
        #expect(abs(one.x - 1) < 1e-12 && abs(one.y - 1) < 1e-12 && abs(one.z - 1) < 1e-12, "\(name): \(one)")
        // A grey card's raw response, once balanced, renders neutral at its reflectance.
        let raw = model.colorMatrix(forWhite: white) * white.xyz(luminance: 0.18)
        let rendered = ccm * (raw * model.gains(forWhite: white))
        #expect(abs(rendered.x - rendered.y) < 1e-9 && abs(rendered.z - rendered.y) < 1e-9)
        // A coloured surface's XYZ under the white is recovered, adapted to D65.
        let surface = SIMD3(0.30, 0.20, 0.10)
        let balanced = (model.colorMatrix(forWhite: white) * surface) * model.gains(forWhite: white)
        let scale = (model.colorMatrix(forWhite: white) * white.xyz()) * model.gains(forWhite: white)
        let xyz = model.cameraToXYZ(forWhite: white) * (balanced / scale.y)
        let expectedXYZ = ChromaticAdaptation.bradford(from: white, to: .d65) * surface
        #expect(abs(xyz.x - expectedXYZ.x) < 1e-9 && abs(xyz.y - expectedXYZ.y) < 1e-9 && abs(xyz.z - expectedXYZ.z) < 1e-9, "\(name): \(xyz) vs \(expectedXYZ)")
        // Adapted to D50, white lands on D50.
        let d50 = model.cameraToXYZ(forWhite: white, adaptedTo: .d50) * SIMD3(1, 1, 1)
        #expect(abs(d50.x - Chromaticity.d50.xyz().x) < 1e-12 && abs(d50.z - Chromaticity.d50.xyz().z) < 1e-12)
    }
}
