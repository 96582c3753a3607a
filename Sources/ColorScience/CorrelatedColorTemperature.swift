import Foundation

/// Correlated colour temperature (CCT): the temperature of the Planckian radiator nearest a
/// chromaticity in CIE 1960 uv, and Duv, the signed distance from it (positive above the
/// locus, i.e. greenish).
///
/// `ohno2013` is the accurate reference (exact locus, any Duv); `robertson1968` is the classic
/// isotherm method (`TemperatureTint` is its DNG form); `mccamy` and `hernandezAndres1999` are
/// closed-form fits valid only near the locus and within their temperature ranges.
public enum CorrelatedColorTemperature {
    /// McCamy 1992 cubic: `n = (x − 0.3320)/(y − 0.1858)`,
    /// `CCT = −449n³ + 3525n² − 6823.3n + 5520.33`.
    ///
    /// Good to a few kelvin for ~3000–8000 K near the locus; −19 K at 2000 K, −118 K at 10 000 K
    /// and thousands of kelvin above 15 000 K.
    public static func mccamy(_ white: Chromaticity) -> Double {
        let n = (white.x - 0.3320) / (white.y - 0.1858)
        return ((-449 * n + 3525) * n - 6823.3) * n + 5520.33
    }

    /// Hernández-Andrés, Lee & Romero 1999 (Applied Optics 38(27)) exponential fit for daylight,
    /// 3000–800 000 K; its second branch takes over above 50 000 K.
    public static func hernandezAndres1999(_ white: Chromaticity) -> Double {
        let n = (white.x - 0.3366) / (white.y - 0.1735)
        let cct = -949.86315 + 6253.80338 * exp(-n / 0.92159) + 28.70599 * exp(-n / 0.20039)
            + 0.00004 * exp(-n / 0.07125)
        guard cct > 50_000 else { return cct }
        let m = (white.x - 0.3356) / (white.y - 0.1691)
        return 36284.48953 + 0.00228 * exp(-m / 0.07861) + 5.4535e-36 * exp(-m / 0.01543)
    }

    /// Robertson 1968 isotherms with the table's 325-mired typo corrected (u = 0.24792), so
    /// unlike `TemperatureTint` it has no 13 K dip around 3000 K. Range 1666.7–100 000 K.
    public static func robertson1968(_ white: Chromaticity) -> (temperature: Double, duv: Double) {
        let (temperature, offset) = RobertsonIsotherms.corrected.temperatureAndOffset(uv: white.uv)
        // The isotherm direction points to −v, so distance above the locus is −offset.
        return (temperature, -offset)
    }
}
