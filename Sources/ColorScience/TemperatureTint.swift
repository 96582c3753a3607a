/// A white point as correlated colour temperature and tint, the way Adobe Camera Raw, the DNG
/// SDK and AVFoundation's `AVCaptureWhiteBalanceTemperatureAndTintValues` describe it.
///
/// Conversions use the DNG SDK's Robertson-isotherm method (`dng_temperature.cpp`), table typo
/// included, so values match Adobe's to rounding. Tint is the offset from the Planckian locus
/// along the isotherm in CIE 1960 uv, times 3000: one unit is Δuv = 1/3000, and positive tint
/// is above the locus (a greenish illuminant), so tint ≈ +3000·Duv. Temperatures read from a
/// chromaticity lie in [1666.7, 100 000] K; Camera Raw's UI uses 2000–50 000 K and ±150 tint.
public struct TemperatureTint: Sendable, Hashable {
    /// Correlated colour temperature in kelvin.
    public var temperature: Double
    /// Tint: +3000 × the signed uv distance from the Planckian locus (positive = green).
    public var tint: Double

    /// The DNG SDK's `kTintScale`: tint = −3000 × the uv offset along the isotherm direction
    /// (1, t)/√(1 + t²), which points below the locus (t < 0), hence the minus sign.
    public static let tintScale = -3000.0

    /// The temperatures `init(_:)` can return: 10⁶/600 ... 10⁶/10 kelvin.
    public static let temperatureRange: ClosedRange<Double> = (1e6 / 600)...1e5

    /// A temperature in kelvin and a tint (any values; `chromaticity` extrapolates).
    public init(temperature: Double, tint: Double) {
        self.temperature = temperature
        self.tint = tint
    }

    /// The temperature and tint of a chromaticity (DNG `dng_temperature::Set_xy_coord`).
    public init(_ white: Chromaticity) {
        let (temperature, offset) = RobertsonIsotherms.dng.temperatureAndOffset(uv: white.uv)
        self.init(temperature: temperature, tint: offset * Self.tintScale)
    }

    /// The chromaticity of this temperature and tint (DNG `dng_temperature::Get_xy_coord`).
    public var chromaticity: Chromaticity {
        Chromaticity(uv: RobertsonIsotherms.dng.uv(temperature: temperature, offset: tint / Self.tintScale))
    }
}
