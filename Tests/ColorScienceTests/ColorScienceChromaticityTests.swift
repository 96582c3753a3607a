import Testing

@testable import ColorScience

/// CIE 1931 xy ↔ XYZ, CIE 1960 uv, CIE 1976 u′v′, DNG pinning and the standard illuminants
/// (docs `color-and-sensor.md` §1, §2, §4).
@Suite("ColorScience: chromaticity coordinates")
struct ColorScienceChromaticityTests {
    @Test func xyYToXYZAndBack() {
        let d65 = StandardIlluminant.d65.chromaticity
        let xyz = d65.xyz(luminance: 50)
        #expect(abs(xyz.x - 0.31272 * 50 / 0.32903) < 1e-12)
        #expect(xyz.y == 50)
        #expect(abs(xyz.z - (1 - 0.31272 - 0.32903) * 50 / 0.32903) < 1e-12)
        let back = Chromaticity(xyz: xyz)
        #expect(back != nil)
        #expect(abs(back!.x - d65.x) < 1e-15 && abs(back!.y - d65.y) < 1e-15)
        #expect(Chromaticity(xyz: .zero) == nil)
    }

    @Test func d65InUCS() {
        let d65 = StandardIlluminant.d65.chromaticity
        #expect(abs(d65.uv.x - 0.19783) < 5e-6 && abs(d65.uv.y - 0.31223) < 5e-6)
        #expect(abs(d65.uvPrime.x - 0.19783) < 5e-6 && abs(d65.uvPrime.y - 0.46834) < 5e-6)
        #expect(abs(d65.uvPrime.y - 1.5 * d65.uv.y) < 1e-15)
    }

    @Test func ucsRoundTrips() {
        for x in stride(from: 0.05, through: 0.7, by: 0.05) {
            for y in stride(from: 0.05, through: 0.8, by: 0.05) where x + y < 1 {
                let c = Chromaticity(x: x, y: y)
                let viaUV = Chromaticity(uv: c.uv)
                let viaUVPrime = Chromaticity(uvPrime: c.uvPrime)
                #expect(abs(viaUV.x - x) < 1e-14 && abs(viaUV.y - y) < 1e-14)
                #expect(abs(viaUVPrime.x - x) < 1e-14 && abs(viaUVPrime.y - y) < 1e-14)
            }
        }
        // The DNG form u = 2x/(1.5 − x + 6y) is the same algebra.
        let a = StandardIlluminant.a.chromaticity
        #expect(abs(a.uv.x - 2 * a.x / (1.5 - a.x + 6 * a.y)) < 1e-15)
        #expect(abs(a.uv.y - 3 * a.y / (1.5 - a.x + 6 * a.y)) < 1e-15)
    }

    @Test func dngPinning() {
        // Inside the range: untouched.
        #expect(Chromaticity.d65.pinned == .d65)
        // Negative and zero coordinates are pinned to 1e-6, so XYZ stays finite.
        let low = Chromaticity(x: -0.2, y: 0).pinned
        #expect(low.x == 1e-6 && low.y == 1e-6)
        #expect(Chromaticity(x: 0.3, y: 0).pinnedXYZ.x.isFinite)
        // x + y > 0.999999 is scaled back onto that line.
        let over = Chromaticity(x: 0.7, y: 0.6).pinned
        #expect(abs(over.x + over.y - 0.999999) < 1e-15)
        #expect(abs(over.x / over.y - 0.7 / 0.6) < 1e-12)
        #expect(Chromaticity(x: 1.5, y: 0.2).pinned.x < 0.999999)
        // XYZtoXY returns D50 for black or negative sums.
        #expect(Chromaticity(xyzOrD50: .zero) == .d50)
        #expect(Chromaticity(xyzOrD50: SIMD3(-1, 0, 0)) == .d50)
        #expect(Chromaticity(xyzOrD50: SIMD3(1, 1, 1)) == Chromaticity(x: 1.0 / 3, y: 1.0 / 3))
    }

    @Test func standardIlluminants() {
        let cie: [StandardIlluminant: (Double, Double)] = [
            .a: (0.44758, 0.40745), .d50: (0.34567, 0.35851), .d55: (0.33243, 0.34744),
            .d65: (0.31272, 0.32903), .d75: (0.29903, 0.31488), .f2: (0.37210, 0.37510),
            .f11: (0.38050, 0.37690), .e: (1.0 / 3, 1.0 / 3),
        ]
        for (illuminant, (x, y)) in cie {
            #expect(illuminant.chromaticity == Chromaticity(x: x, y: y), "\(illuminant)")
        }
        let dng: [StandardIlluminant: (Double, Double)] = [
            .a: (0.4476, 0.4074), .d50: (0.3457, 0.3585), .d55: (0.3324, 0.3474),
            .d65: (0.3127, 0.3290), .d75: (0.2990, 0.3149),
        ]
        for illuminant in StandardIlluminant.allCases {
            guard let (x, y) = dng[illuminant] else {
                #expect(illuminant.dngChromaticity == nil)
                continue
            }
            let constant = illuminant.dngChromaticity
            #expect(constant == Chromaticity(x: x, y: y), "\(illuminant)")
            // The 4-decimal forms are roundings of the CIE ones (A's y differs by 5e-5).
            #expect(abs(x - illuminant.chromaticity.x) <= 5e-5 + 1e-12 && abs(y - illuminant.chromaticity.y) <= 5e-5 + 1e-12)
        }
        #expect(Chromaticity.d65 == Chromaticity(x: 0.3127, y: 0.3290))
        #expect(Chromaticity.d50 == Chromaticity(x: 0.3457, y: 0.3585))
        // The ICC PCS white is D50 to 4 decimals.
        let pcs = Chromaticity(xyz: StandardIlluminant.iccPCSWhite)!
        #expect(abs(pcs.x - 0.3457) < 5e-5 && abs(pcs.y - 0.3585) < 5e-5)
    }
}
