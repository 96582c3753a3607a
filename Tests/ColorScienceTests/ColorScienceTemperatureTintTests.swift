import Testing

@testable import ColorScience

/// Temperature/tint ↔ xy by the DNG SDK's Robertson method; every vector of docs
/// `color-and-sensor.md` §1 ([calc] by running the SDK code verbatim).
@Suite("ColorScience: DNG temperature and tint")
struct ColorScienceTemperatureTintTests {
    /// (name, x, y, temperature, tint); T printed to 0.1 K, tint to 0.01.
    static let setXY: [(String, Double, Double, Double, Double)] = [
        ("A", 0.44758, 0.40745, 2855.6, 0.01),
        ("D50 CIE", 0.34567, 0.35851, 5001.8, 9.62),
        ("D50 SDK", 0.3457, 0.3585, 5000.7, 9.56),
        ("D55", 0.33243, 0.34744, 5501.1, 10.01),
        ("D65 CIE", 0.31272, 0.32903, 6502.4, 9.79),
        ("D65 SDK", 0.3127, 0.3290, 6503.7, 9.77),
        ("D75", 0.29903, 0.31488, 7504.8, 9.67),
        ("FL2", 0.37210, 0.37510, 4222.7, 5.58),
        ("FL11", 0.38050, 0.37690, 3999.6, 0.16),
        ("E", 1.0 / 3, 1.0 / 3, 5454.0, -12.99),
    ]

    @Test(arguments: setXY)
    func temperatureAndTintOfChromaticity(name: String, x: Double, y: Double, temperature: Double, tint: Double) {
        let tt = TemperatureTint(Chromaticity(x: x, y: y))
        #expect(abs(tt.temperature - temperature) <= 0.05 + 1e-6, "\(name): \(tt.temperature) K")
        #expect(abs(tt.tint - tint) <= 0.005 + 1e-6, "\(name): tint \(tt.tint)")
    }

    /// (temperature, tint, x, y), xy printed to 5 decimals.
    static let getXY: [(Double, Double, Double, Double)] = [
        (2000, 0, 0.52669, 0.41331), (2856, 0, 0.44755, 0.40744), (5000, 0, 0.34510, 0.35162),
        (6500, 0, 0.31353, 0.32353), (10000, 0, 0.28063, 0.28828), (50000, 0, 0.24560, 0.24240),
        (4000, 150, 0.42493, 0.54077), (6500, 150, 0.29957, 0.42395),
    ]

    @Test(arguments: getXY)
    func chromaticityOfTemperatureAndTint(temperature: Double, tint: Double, x: Double, y: Double) {
        let c = TemperatureTint(temperature: temperature, tint: tint).chromaticity
        #expect(abs(c.x - x) <= 5e-6 + 1e-9, "\(temperature) K, \(tint): x \(c.x)")
        #expect(abs(c.y - y) <= 5e-6 + 1e-9, "\(temperature) K, \(tint): y \(c.y)")
    }

    /// Round trip over Camera Raw's full range and beyond: 1700–100 000 K × tint ±150 (the doc's
    /// bounds for the SDK code: |ΔT|/T ≤ 1.1e-4, |Δtint| ≤ 1.6e-3).
    @Test func roundTrip() {
        var worstT = 0.0, worstTint = 0.0
        var t = 1700.0
        while t <= 100_000 {
            for tint in stride(from: -150.0, through: 150, by: 10) {
                let back = TemperatureTint(TemperatureTint(temperature: t, tint: tint).chromaticity)
                worstT = max(worstT, abs(back.temperature - t) / t)
                worstTint = max(worstTint, abs(back.tint - tint))
            }
            t *= 1.02
        }
        #expect(worstT <= 1.1e-4, "worst |ΔT|/T \(worstT)")
        #expect(worstTint <= 1.6e-3, "worst |Δtint| \(worstTint)")
    }

    /// Positive tint is above the locus (green), tint ≈ +3000·Duv; D65 reads ≈ +9.8.
    @Test func tintSign() {
        let above = TemperatureTint(temperature: 5000, tint: 50).chromaticity
        let on = TemperatureTint(temperature: 5000, tint: 0).chromaticity
        #expect(above.uv.y > on.uv.y)
        let d65 = StandardIlluminant.d65.chromaticity
        let tt = TemperatureTint(d65)
        #expect(abs(tt.tint - 3000 * CorrelatedColorTemperature.ohno2013(d65).duv) < 0.3)
        // One tint unit is Δuv = 1/3000: ±150 is ±0.05 uv.
        let far = TemperatureTint(temperature: 5000, tint: 150).chromaticity
        let d = far.uv - on.uv
        #expect(abs((d * d).sum().squareRoot() - 0.05) < 1e-12)
        #expect(TemperatureTint.tintScale == -3000)
    }

    /// Set_xy clamps the temperature to [10⁶/600, 10⁶/10] K (tint still computed); Get_xy
    /// extrapolates the last segment below 1667 K.
    @Test func ranges() {
        let cold = TemperatureTint(PlanckianLocus.chromaticity(temperature: 1200))
        #expect(abs(cold.temperature - 1e6 / 600) < 1e-9)
        #expect(cold.tint != 0)
        let hot = TemperatureTint(Chromaticity(x: 0.2, y: 0.2))
        #expect(abs(hot.temperature - 100_000) < 1e-9)
        #expect(TemperatureTint.temperatureRange == (1e6 / 600)...100_000)
        let extrapolated = TemperatureTint(temperature: 1500, tint: 0).chromaticity
        let edge = TemperatureTint(temperature: 1e6 / 600, tint: 0).chromaticity
        #expect(extrapolated.x > edge.x)
    }

    /// The SDK table's u = 0.24702 at 325 mired: Adobe reads 13–15 K low between 2857 and
    /// 3333 K (true 3000 K → 2986.5 K; 3200 K → 3186.0 K) and Get_xy(3077, 0) is off the locus.
    @Test func tableTypoParity() {
        let at3000 = TemperatureTint(PlanckianLocus.chromaticity(temperature: 3000))
        #expect(abs(at3000.temperature - 2986.5) <= 0.06, "\(at3000.temperature)")
        let at3200 = TemperatureTint(PlanckianLocus.chromaticity(temperature: 3200))
        #expect(abs(at3200.temperature - 3186.0) <= 0.06, "\(at3200.temperature)")
        let c = TemperatureTint(temperature: 3077, tint: 0).chromaticity
        #expect(abs(c.x - 0.43043) <= 5e-6 + 1e-9 && abs(c.y - 0.40258) <= 5e-6 + 1e-9, "\(c)")
        let exact = PlanckianLocus.chromaticity(temperature: 3077)
        #expect(abs(exact.x - 0.43155) < 1e-5 && abs(exact.y - 0.40216) < 1e-5)
        // Exact Planck at 3077 K is u = 0.24792, the corrected table's value.
        #expect(abs(exact.uv.x - 0.24792) < 5e-6)
        #expect(RobertsonIsotherms.dng.rows[19].u == 0.24702 && RobertsonIsotherms.corrected.rows[19].u == 0.24792)
    }
}
