import Testing

@testable import ColorScience

/// CIELAB, CIEDE2000 (Sharma, Wu & Dalal 2005 test data) and the ColorChecker reference
/// (docs `color-and-sensor.md` §4).
@Suite("ColorScience: CIELAB and colour difference")
struct ColorScienceLabTests {
    /// All 34 pairs of Sharma et al., Color Res. Appl. 30(1) 21–30, 2005 (their test data): L1 a1 b1, L2 a2 b2, ΔE00.
    static let sharma: [(Lab, Lab, Double)] = [
        (Lab(L: 50.0000, a: 2.6772, b: -79.7751), Lab(L: 50.0000, a: 0.0000, b: -82.7485), 2.0425),
        (Lab(L: 50.0000, a: 3.1571, b: -77.2803), Lab(L: 50.0000, a: 0.0000, b: -82.7485), 2.8615),
        (Lab(L: 50.0000, a: 2.8361, b: -74.0200), Lab(L: 50.0000, a: 0.0000, b: -82.7485), 3.4412),
        (Lab(L: 50.0000, a: -1.3802, b: -84.2814), Lab(L: 50.0000, a: 0.0000, b: -82.7485), 1.0000),
        (Lab(L: 50.0000, a: -1.1848, b: -84.8006), Lab(L: 50.0000, a: 0.0000, b: -82.7485), 1.0000),
        (Lab(L: 50.0000, a: -0.9009, b: -85.5211), Lab(L: 50.0000, a: 0.0000, b: -82.7485), 1.0000),
        (Lab(L: 50.0000, a: 0.0000, b: 0.0000), Lab(L: 50.0000, a: -1.0000, b: 2.0000), 2.3669),
        (Lab(L: 50.0000, a: -1.0000, b: 2.0000), Lab(L: 50.0000, a: 0.0000, b: 0.0000), 2.3669),
        (Lab(L: 50.0000, a: 2.4900, b: -0.0010), Lab(L: 50.0000, a: -2.4900, b: 0.0009), 7.1792),
        (Lab(L: 50.0000, a: 2.4900, b: -0.0010), Lab(L: 50.0000, a: -2.4900, b: 0.0010), 7.1792),
        (Lab(L: 50.0000, a: 2.4900, b: -0.0010), Lab(L: 50.0000, a: -2.4900, b: 0.0011), 7.2195),
        (Lab(L: 50.0000, a: 2.4900, b: -0.0010), Lab(L: 50.0000, a: -2.4900, b: 0.0012), 7.2195),
        (Lab(L: 50.0000, a: -0.0010, b: 2.4900), Lab(L: 50.0000, a: 0.0009, b: -2.4900), 4.8045),
        (Lab(L: 50.0000, a: -0.0010, b: 2.4900), Lab(L: 50.0000, a: 0.0010, b: -2.4900), 4.8045),
        (Lab(L: 50.0000, a: -0.0010, b: 2.4900), Lab(L: 50.0000, a: 0.0011, b: -2.4900), 4.7461),
        (Lab(L: 50.0000, a: 2.5000, b: 0.0000), Lab(L: 50.0000, a: 0.0000, b: -2.5000), 4.3065),
        (Lab(L: 50.0000, a: 2.5000, b: 0.0000), Lab(L: 73.0000, a: 25.0000, b: -18.0000), 27.1492),
        (Lab(L: 50.0000, a: 2.5000, b: 0.0000), Lab(L: 61.0000, a: -5.0000, b: 29.0000), 22.8977),
        (Lab(L: 50.0000, a: 2.5000, b: 0.0000), Lab(L: 56.0000, a: -27.0000, b: -3.0000), 31.9030),
        (Lab(L: 50.0000, a: 2.5000, b: 0.0000), Lab(L: 58.0000, a: 24.0000, b: 15.0000), 19.4535),
        (Lab(L: 50.0000, a: 2.5000, b: 0.0000), Lab(L: 50.0000, a: 3.1736, b: 0.5854), 1.0000),
        (Lab(L: 50.0000, a: 2.5000, b: 0.0000), Lab(L: 50.0000, a: 3.2972, b: 0.0000), 1.0000),
        (Lab(L: 50.0000, a: 2.5000, b: 0.0000), Lab(L: 50.0000, a: 1.8634, b: 0.5757), 1.0000),
        (Lab(L: 50.0000, a: 2.5000, b: 0.0000), Lab(L: 50.0000, a: 3.2592, b: 0.3350), 1.0000),
        (Lab(L: 60.2574, a: -34.0099, b: 36.2677), Lab(L: 60.4626, a: -34.1751, b: 39.4387), 1.2644),
        (Lab(L: 63.0109, a: -31.0961, b: -5.8663), Lab(L: 62.8187, a: -29.7946, b: -4.0864), 1.2630),
        (Lab(L: 61.2901, a: 3.7196, b: -5.3901), Lab(L: 61.4292, a: 2.2480, b: -4.9620), 1.8731),
        (Lab(L: 35.0831, a: -44.1164, b: 3.7933), Lab(L: 35.0232, a: -40.0716, b: 1.5901), 1.8645),
        (Lab(L: 22.7233, a: 20.0904, b: -46.6940), Lab(L: 23.0331, a: 14.9730, b: -42.5619), 2.0373),
        (Lab(L: 36.4612, a: 47.8580, b: 18.3852), Lab(L: 36.2715, a: 50.5065, b: 21.2231), 1.4146),
        (Lab(L: 90.8027, a: -2.0831, b: 1.4410), Lab(L: 91.1528, a: -1.6435, b: 0.0447), 1.4441),
        (Lab(L: 90.9257, a: -0.5406, b: -0.9208), Lab(L: 88.6381, a: -0.8985, b: -0.7239), 1.5381),
        (Lab(L: 6.7747, a: -0.2908, b: -2.4247), Lab(L: 5.8714, a: -0.0985, b: -2.2286), 0.6377),
        (Lab(L: 2.0776, a: 0.0795, b: -1.1350), Lab(L: 0.9033, a: -0.0636, b: -0.5514), 0.9082),
    ]

    @Test func ciede2000SharmaPairs() {
        for (index, (lhs, rhs, expected)) in Self.sharma.enumerated() {
            let forward = ColorDifference.ciede2000(lhs, rhs)
            let backward = ColorDifference.ciede2000(rhs, lhs)
            #expect(abs(forward - expected) <= 5e-5 + 1e-9, "pair \(index + 1): \(forward)")
            #expect(abs(forward - backward) < 1e-12, "pair \(index + 1) is symmetric")
        }
    }

    @Test func ciede2000Properties() {
        let grey = Lab(L: 50, a: 0, b: 0)
        #expect(ColorDifference.ciede2000(grey, grey) == 0)
        // Between neutrals only lightness counts: at L̄ = 50, S_L = 1, so ΔE00 = ΔL.
        #expect(abs(ColorDifference.ciede2000(Lab(L: 49, a: 0, b: 0), Lab(L: 51, a: 0, b: 0)) - 2) < 1e-12)
        // Parametric factors divide their term.
        let a = Lab(L: 40, a: 0, b: 0), b = Lab(L: 60, a: 0, b: 0)
        #expect(abs(ColorDifference.ciede2000(a, b, kL: 2) - ColorDifference.ciede2000(a, b) / 2) < 1e-12)
        #expect(abs(ColorDifference.cie76(Lab(L: 50, a: 3, b: 4), grey) - 5) < 1e-15)
    }

    @Test func labRoundTripAndWhite() {
        let white = StandardIlluminant.iccPCSWhite
        let lab = Lab(xyz: white, referenceWhite: white)
        #expect(abs(lab.L - 100) < 1e-12 && abs(lab.a) < 1e-12 && abs(lab.b) < 1e-12)
        // 18 % grey is L* ≈ 49.5; the linear segment below ε = 216/24389.
        #expect(abs(Lab(xyz: white * 0.18, referenceWhite: white).L - 49.4961) < 1e-4)
        #expect(abs(Lab(xyz: white * 0.001, referenceWhite: white).L - 24389.0 / 27 * 0.001) < 1e-12)
        for xyz in [SIMD3(0.2, 0.3, 0.4), SIMD3(0.001, 0.002, 0.0005), SIMD3(0.9, 0.8, 0.1), SIMD3(0.05, 0.02, 0.6)] {
            let back = Lab(xyz: xyz, referenceWhite: Chromaticity.d65).xyz(referenceWhite: Chromaticity.d65)
            #expect(abs(back.x - xyz.x) < 1e-14 && abs(back.y - xyz.y) < 1e-14 && abs(back.z - xyz.z) < 1e-14)
        }
        let colour = Lab(L: 50, a: -20, b: -20)
        #expect(abs(colour.chroma - 20 * 2.0.squareRoot()) < 1e-12 && abs(colour.hue - 225) < 1e-12)
        #expect(Lab(L: 50, a: 0, b: 0).hue == 0)
    }

    /// ColorChecker Classic (X-Rite, after November 2014), D50 CIELAB → sRGB 8-bit via the ICC
    /// D50 white, Bradford to D65, clipped. Linear Y of the neutrals from the same data.
    static let colorChecker: [(String, Lab, SIMD3<Int>)] = [
        ("dark skin", Lab(L: 37.54, a: 14.37, b: 14.92), SIMD3(116, 79, 65)),
        ("light skin", Lab(L: 64.66, a: 19.27, b: 17.50), SIMD3(197, 144, 127)),
        ("blue sky", Lab(L: 49.32, a: -3.82, b: -22.54), SIMD3(91, 120, 155)),
        ("foliage", Lab(L: 43.46, a: -12.74, b: 22.72), SIMD3(91, 108, 64)),
        ("blue flower", Lab(L: 54.94, a: 9.61, b: -24.79), SIMD3(131, 127, 175)),
        ("bluish green", Lab(L: 70.48, a: -32.26, b: -0.37), SIMD3(95, 189, 172)),
        ("orange", Lab(L: 62.73, a: 35.83, b: 56.50), SIMD3(224, 124, 48)),
        ("purplish blue", Lab(L: 39.43, a: 10.75, b: -45.17), SIMD3(69, 90, 167)),
        ("moderate red", Lab(L: 50.57, a: 48.64, b: 16.67), SIMD3(197, 80, 95)),
        ("purple", Lab(L: 30.10, a: 22.54, b: -20.87), SIMD3(93, 58, 104)),
        ("yellow green", Lab(L: 71.77, a: -24.13, b: 58.19), SIMD3(156, 187, 58)),
        ("orange yellow", Lab(L: 71.51, a: 18.24, b: 67.37), SIMD3(227, 161, 39)),
        ("blue", Lab(L: 28.37, a: 15.42, b: -49.80), SIMD3(40, 62, 145)),
        ("green", Lab(L: 54.38, a: -39.72, b: 32.27), SIMD3(61, 147, 70)),
        ("red", Lab(L: 42.43, a: 51.05, b: 28.62), SIMD3(178, 54, 57)),
        ("yellow", Lab(L: 81.80, a: 2.67, b: 80.41), SIMD3(236, 200, 15)),
        ("magenta", Lab(L: 50.63, a: 51.28, b: -14.12), SIMD3(191, 79, 146)),
        ("cyan", Lab(L: 49.57, a: -29.71, b: -28.32), SIMD3(0, 133, 165)),
        ("white 9.5", Lab(L: 95.19, a: -1.03, b: 2.93), SIMD3(241, 242, 235)),
        ("neutral 8", Lab(L: 81.29, a: -0.57, b: 0.44), SIMD3(201, 202, 201)),
        ("neutral 6.5", Lab(L: 66.89, a: -0.75, b: -0.06), SIMD3(161, 163, 163)),
        ("neutral 5", Lab(L: 50.76, a: -0.13, b: 0.14), SIMD3(121, 121, 121)),
        ("neutral 3.5", Lab(L: 35.63, a: -0.46, b: -0.48), SIMD3(83, 84, 85)),
        ("black 2", Lab(L: 20.64, a: 0.07, b: -0.46), SIMD3(50, 50, 50)),
    ]

    @Test func colorCheckerToSRGB() {
        let toSRGB = RGBColorSpace.sRGB.fromXYZ * ChromaticAdaptation.bradford(from: .d50, to: .d65)
        for (name, lab, expected) in Self.colorChecker {
            let linear = toSRGB * lab.xyz(referenceWhite: StandardIlluminant.iccPCSWhite)
            if name == "cyan" {
                // Outside sRGB: linear R = −0.044.
                #expect(abs(linear.x + 0.044) < 5e-4, "\(linear.x)")
            }
            let clipped = linear.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
            let code = SIMD3(
                Int((TransferFunction.sRGB.encode(clipped.x) * 255).rounded()),
                Int((TransferFunction.sRGB.encode(clipped.y) * 255).rounded()),
                Int((TransferFunction.sRGB.encode(clipped.z) * 255).rounded()))
            #expect(code == expected, "\(name): \(code)")
        }
        let neutralY = [0.881, 0.590, 0.365, 0.191, 0.088, 0.032]
        for (k, y) in neutralY.enumerated() {
            let lab = Self.colorChecker[18 + k].1
            #expect(abs(lab.xyz(referenceWhite: StandardIlluminant.iccPCSWhite).y - y) < 5e-4, "neutral \(k)")
        }
    }

    /// The white-balance acceptance measure: a neutral patch rendered with a colour cast has a
    /// CIEDE2000 distance from neutral that grows with the cast.
    @Test func neutralPatchDistance() {
        let neutral = Lab(L: 50.76, a: 0, b: 0)
        let slight = ColorDifference.ciede2000(Lab(L: 50.76, a: 1, b: 1), neutral)
        let strong = ColorDifference.ciede2000(Lab(L: 50.76, a: 4, b: 6), neutral)
        #expect(slight > 0.5 && slight < strong)
        // sRGB 121 grey is neutral to well under 0.1 ΔE00 when converted through D65 → D50 Bradford.
        let grey = TransferFunction.sRGB.decode(121.0 / 255)
        let xyz = ChromaticAdaptation.bradford(from: .d65, to: .d50) * (RGBColorSpace.sRGB.toXYZ * SIMD3(repeating: grey))
        let lab = Lab(xyz: xyz, referenceWhite: Chromaticity.d50)
        #expect(ColorDifference.ciede2000(lab, Lab(L: lab.L, a: 0, b: 0)) < 1e-9)
    }
}
