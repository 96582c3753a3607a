import Foundation

/// The Planckian (blackbody) locus in CIE 1931 xy and CIE 1960 uv.
///
/// `chromaticity(temperature:)` integrates Planck's law against the CIE 1931 2° observer
/// (360–830 nm, 1 nm, c2 = 1.4388e-2 m·K as in CIE 015), which is the reference the
/// approximations `kang2002` and `krystek1985` are measured against.
public enum PlanckianLocus {
    /// The second radiation constant c2 = h·c/k in m·K, as fixed by CIE 015.
    public static let c2 = 1.4388e-2

    /// Relative spectral radiance of a blackbody at `temperature` kelvin and `wavelength`
    /// nanometres: λ⁻⁵ / (exp(c2 / λT) − 1), with λ in metres (the c1 factor is dropped).
    public static func relativeSpectralRadiance(wavelength: Double, temperature: Double) -> Double {
        let lambda = wavelength * 1e-9
        // expm1 keeps precision where c2/λT is small (very hot bodies).
        return 1 / (pow(lambda, 5) * expm1(c2 / (lambda * temperature)))
    }

    /// The exact XYZ of a blackbody at `temperature` kelvin, scaled to Y = 1.
    public static func xyz(temperature: Double) -> SIMD3<Double> {
        let xyz = CIE1931StandardObserver.tristimulus {
            relativeSpectralRadiance(wavelength: $0, temperature: temperature)
        }
        return xyz / xyz.y
    }

    /// The exact xy chromaticity of a blackbody at `temperature` kelvin.
    public static func chromaticity(temperature: Double) -> Chromaticity {
        Chromaticity(xyzOrD50: xyz(temperature: temperature))
    }

    /// The exact CIE 1960 uv of a blackbody at `temperature` kelvin.
    public static func uv(temperature: Double) -> SIMD2<Double> {
        chromaticity(temperature: temperature).uv
    }

    /// The chromaticity at correlated colour temperature `temperature` and distance `duv` from
    /// the locus in CIE 1960 uv, perpendicular to it (positive above: greenish). The inverse
    /// of `CorrelatedColorTemperature.ohno2013`.
    public static func chromaticity(temperature: Double, duv: Double) -> Chromaticity {
        let onLocus = uv(temperature: temperature)
        guard duv != 0 else { return Chromaticity(uv: onLocus) }
        // The locus tangent towards lower temperature points to +u; its left normal is +v.
        let step = temperature * 1e-4
        let tangent = uv(temperature: temperature - step) - uv(temperature: temperature + step)
        let normal = SIMD2(-tangent.y, tangent.x) / (tangent * tangent).sum().squareRoot()
        return Chromaticity(uv: onLocus + duv * normal)
    }

    /// Kang et al. 2002 (Kim et al.) cubic spline for 1667–25 000 K; within 5.4e-4 of the exact
    /// locus in x over that range.
    public static func kang2002(temperature t: Double) -> Chromaticity {
        let t2 = t * t, t3 = t2 * t
        let x = t <= 4000
            ? -0.2661239e9 / t3 - 0.2343589e6 / t2 + 0.8776956e3 / t + 0.179910
            : -3.0258469e9 / t3 + 2.1070379e6 / t2 + 0.2226347e3 / t + 0.240390
        let x2 = x * x, x3 = x2 * x
        let y: Double
        if t <= 2222 {
            y = -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * x - 0.20219683
        } else if t <= 4000 {
            y = -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * x - 0.16748867
        } else {
            y = 3.0817580 * x3 - 5.8733867 * x2 + 3.75112997 * x - 0.37001483
        }
        return Chromaticity(x: x, y: y)
    }

    /// Krystek 1985 rational approximation in CIE 1960 uv for 1000–15 000 K; within 3.4e-4 in
    /// xy of the exact locus for 1667–10 000 K.
    public static func krystek1985(temperature t: Double) -> Chromaticity {
        let t2 = t * t
        let u = (0.860117757 + 1.54118254e-4 * t + 1.28641212e-7 * t2) / (1 + 8.42420235e-4 * t + 7.08145163e-7 * t2)
        let v = (0.317398726 + 4.22806245e-5 * t + 4.20481691e-8 * t2) / (1 - 2.89741816e-5 * t + 1.61456053e-7 * t2)
        return Chromaticity(uv: SIMD2(u, v))
    }
}
