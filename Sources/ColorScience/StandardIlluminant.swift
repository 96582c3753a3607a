/// CIE standard illuminants with their CIE 1931 2° chromaticities.
///
/// `chromaticity` is the CIE 015:2004 5-decimal form; `dngChromaticity` the 4-decimal constant of
/// the Adobe DNG SDK (`dng_xy_coord.h`) where it defines one. The two differ by up to 5e-5, enough
/// to move a temperature by a kelvin or so, so tests that mirror DNG code must use the DNG form.
public enum StandardIlluminant: Sendable, Hashable, CaseIterable {
    /// Incandescent (tungsten) light, a 2856 K blackbody.
    case a
    /// Horizon daylight, ≈ 5003 K: the ICC and print viewing white.
    case d50
    /// Mid-morning daylight, ≈ 5503 K.
    case d55
    /// Noon daylight, ≈ 6504 K: the white of sRGB, BT.709 and Display P3.
    case d65
    /// North-sky daylight, ≈ 7504 K.
    case d75
    /// Cool white fluorescent (FL2), nominal 4230 K.
    case f2
    /// Narrow-band tri-phosphor fluorescent (FL11), nominal 4000 K.
    case f11
    /// The equal-energy illuminant, x = y = 1/3.
    case e

    /// The CIE 015:2004 chromaticity (5 decimals; E exact).
    public var chromaticity: Chromaticity {
        switch self {
        case .a: Chromaticity(x: 0.44758, y: 0.40745)
        case .d50: Chromaticity(x: 0.34567, y: 0.35851)
        case .d55: Chromaticity(x: 0.33243, y: 0.34744)
        case .d65: Chromaticity(x: 0.31272, y: 0.32903)
        case .d75: Chromaticity(x: 0.29903, y: 0.31488)
        case .f2: Chromaticity(x: 0.37210, y: 0.37510)
        case .f11: Chromaticity(x: 0.38050, y: 0.37690)
        case .e: Chromaticity(x: 1.0 / 3, y: 1.0 / 3)
        }
    }

    /// The DNG SDK's 4-decimal constant (`StdA_xy_coord`, `D50_xy_coord`, …), or `nil` where
    /// the SDK defines none.
    public var dngChromaticity: Chromaticity? {
        switch self {
        case .a: Chromaticity(x: 0.4476, y: 0.4074)
        case .d50: .d50
        case .d55: Chromaticity(x: 0.3324, y: 0.3474)
        case .d65: .d65
        case .d75: Chromaticity(x: 0.2990, y: 0.3149)
        case .f2, .f11, .e: nil
        }
    }

    /// The nominal correlated colour temperature in kelvin (CIE 015; daylights at c2 = 1.4388e-2).
    public var nominalTemperature: Double {
        switch self {
        case .a: 2856
        case .d50: 5003
        case .d55: 5503
        case .d65: 6504
        case .d75: 7504
        case .f2: 4230
        case .f11: 4000
        case .e: 5455
        }
    }

    /// The ICC profile connection space white, XYZ (0.9642, 1.0, 0.8249) (ICC.1, a D50).
    public static let iccPCSWhite = SIMD3<Double>(0.9642, 1.0, 0.8249)
}
