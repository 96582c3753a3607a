import Testing

@testable import ColorScience

/// The exact Planckian locus from the CIE 1931 2° observer, its approximations and the CIE
/// daylight locus (docs `color-and-sensor.md` §2).
@Suite("ColorScience: Planckian and daylight loci")
struct ColorSciencePlanckianTests {
    /// [calc] colour-science 0.4.7, CIE 1931 2°, 360–830 nm, c2 = 1.4388e-2 m·K.
    static let planckian: [(Double, Double, Double)] = [
        (1667, 0.56505, 0.40274), (2000, 0.52668, 0.41330), (2500, 0.47700, 0.41368),
        (2856, 0.44754, 0.40743), (3000, 0.43693, 0.40408), (4000, 0.38044, 0.37675),
        (5000, 0.34510, 0.35161), (5500, 0.33244, 0.34104), (6500, 0.31353, 0.32363),
        (7500, 0.30034, 0.31027), (10000, 0.28063, 0.28829), (25000, 0.25252, 0.25222),
    ]

    @Test(arguments: planckian)
    func exactLocus(temperature: Double, x: Double, y: Double) {
        let c = PlanckianLocus.chromaticity(temperature: temperature)
        // The references are rounded to 5 decimals: ±5e-6 plus integration rounding.
        #expect(abs(c.x - x) < 1e-5, "x at \(temperature) K: \(c.x)")
        #expect(abs(c.y - y) < 1e-5, "y at \(temperature) K: \(c.y)")
        #expect(PlanckianLocus.uv(temperature: temperature) == c.uv)
        #expect(abs(PlanckianLocus.xyz(temperature: temperature).y - 1) < 1e-15)
    }

    @Test func colorMatchingFunctions() {
        #expect(CIE1931StandardObserver.wavelengths == 360...830)
        #expect(CIE1931StandardObserver.colorMatchingFunctions(wavelength: 555) == SIMD3(0.5120501, 1.0, 0.005749999))
        #expect(CIE1931StandardObserver.colorMatchingFunctions(wavelength: 360) == SIMD3(0.0001299, 0.000003917, 0.0006061))
        #expect(CIE1931StandardObserver.colorMatchingFunctions(wavelength: 830) != nil)
        #expect(CIE1931StandardObserver.colorMatchingFunctions(wavelength: 831) == nil)
        #expect(CIE1931StandardObserver.colorMatchingFunctions(wavelength: 359) == nil)
        // Equal energy integrates to (nearly) x = y = 1/3: the three functions have equal areas.
        let e = Chromaticity(xyz: CIE1931StandardObserver.tristimulus { _ in 1 })!
        #expect(abs(e.x - 1.0 / 3) < 1e-4 && abs(e.y - 1.0 / 3) < 1e-4)
        // ∫ȳ ≈ 106.857 at 1 nm.
        #expect(abs(CIE1931StandardObserver.tristimulus { _ in 1 }.y - 106.857) < 0.01)
    }

    @Test func locusIsMonotonicAndSmooth() {
        var previous = PlanckianLocus.chromaticity(temperature: 1000)
        for t in stride(from: 1100.0, through: 100_000, by: 100) {
            let c = PlanckianLocus.chromaticity(temperature: t)
            #expect(c.x < previous.x)
            previous = c
        }
    }

    /// Kang 2002 is within 5.4e-4 of the exact locus in x for 1667–25 000 K; Krystek 1985
    /// within 3.4e-4 in xy for 1667–10 000 K (the doc's figures, from a coarser sampling: at
    /// 50 K steps the worst cases are 5.63e-4 at 2617 K and 3.66e-4 at 2667 K, which
    /// colour-science's implementations reproduce).
    @Test func approximations() {
        var kangWorst = 0.0, krystekWorst = 0.0
        for t in stride(from: 1667.0, through: 25_000, by: 50) {
            let exact = PlanckianLocus.chromaticity(temperature: t)
            kangWorst = max(kangWorst, abs(PlanckianLocus.kang2002(temperature: t).x - exact.x))
            if t <= 10_000 {
                let k = PlanckianLocus.krystek1985(temperature: t)
                krystekWorst = max(krystekWorst, abs(k.x - exact.x), abs(k.y - exact.y))
            }
        }
        #expect(kangWorst <= 5.7e-4 && kangWorst > 5.4e-4)
        #expect(krystekWorst <= 3.7e-4 && krystekWorst > 3.4e-4)
        // Krystek drifts to ~1.5e-3 at 25 000 K, outside its range.
        let far = PlanckianLocus.krystek1985(temperature: 25_000), exact = PlanckianLocus.chromaticity(temperature: 25_000)
        #expect(max(abs(far.x - exact.x), abs(far.y - exact.y)) > 1e-3)
        // Spot values of the closed forms themselves.
        let kang = PlanckianLocus.kang2002(temperature: 6500)
        #expect(abs(kang.x - 0.313494) < 1e-6 && abs(kang.y - 0.323663) < 1e-6)
        let krystek = PlanckianLocus.krystek1985(temperature: 6500)
        #expect(abs(krystek.x - 0.313534) < 1e-6 && abs(krystek.y - 0.323523) < 1e-6)
    }

    /// D65 is daylight at 6500 · 1.4388/1.4380 ≈ 6504 K; D50 at ≈ 5003 K, D75 at ≈ 7504 K.
    /// The locus polynomial's y runs ≈ 9e-5 above the tabulated (SPD-derived) illuminants.
    @Test func daylightLocus() {
        for (illuminant, nominal) in [(StandardIlluminant.d50, 5000.0), (.d55, 5500), (.d65, 6500), (.d75, 7500)] {
            let t = nominal * 1.4388 / 1.4380
            let c = DaylightLocus.chromaticity(temperature: t)
            #expect(abs(c.x - illuminant.chromaticity.x) < 2e-5, "\(illuminant) x \(c.x)")
            #expect(c.y - illuminant.chromaticity.y > 8e-5 && c.y - illuminant.chromaticity.y < 1.1e-4, "\(illuminant) y \(c.y)")
            #expect(abs(illuminant.nominalTemperature - t) < 1)
        }
        // Daylight lies above the Planckian locus (Duv ≈ +0.003).
        let d = CorrelatedColorTemperature.ohno2013(DaylightLocus.chromaticity(temperature: 6504))
        #expect(d.duv > 0.002 && d.duv < 0.004)
    }

    @Test func offLocusChromaticityInvertsOhno() {
        for t in [2000.0, 2856, 4000, 6500, 10_000, 20_000] {
            for duv in [-0.02, -0.005, 0, 0.001, 0.0032, 0.02] {
                let c = PlanckianLocus.chromaticity(temperature: t, duv: duv)
                let back = CorrelatedColorTemperature.ohno2013(c)
                #expect(abs(back.temperature - t) / t < 2e-5, "T \(t) duv \(duv): \(back)")
                #expect(abs(back.duv - duv) < 1e-6, "T \(t) duv \(duv): \(back)")
            }
        }
        // Positive Duv is above the locus (+v).
        #expect(PlanckianLocus.chromaticity(temperature: 5000, duv: 0.01).uv.y > PlanckianLocus.uv(temperature: 5000).y)
    }
}
