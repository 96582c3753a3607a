/// The CIE daylight locus (CIE 015), the chromaticities of the D-series illuminants.
public enum DaylightLocus {
    /// The chromaticity of CIE daylight at correlated colour temperature `temperature`
    /// (defined for 4000–25 000 K; the polynomials are evaluated outside that range too).
    ///
    /// D65 is daylight at 6500 · 1.4388 / 1.4380 ≈ 6504 K: the temperatures were fixed with
    /// the older c2 = 1.4380e-2.
    public static func chromaticity(temperature t: Double) -> Chromaticity {
        let t2 = t * t, t3 = t2 * t
        let x = t <= 7000
            ? -4.6070e9 / t3 + 2.9678e6 / t2 + 0.09911e3 / t + 0.244063
            : -2.0064e9 / t3 + 1.9018e6 / t2 + 0.24748e3 / t + 0.237040
        return Chromaticity(x: x, y: -3.000 * x * x + 2.870 * x - 0.275)
    }
}
