/// A camera's colour response in the DNG model (Adobe DNG specification 1.6, §6; DNG SDK
/// `dng_color_spec.cpp`): the mapping between scene white points, camera-native neutral RGB,
/// white-balance gains and a colour-correction matrix.
///
/// A `ColorMatrix` maps XYZ to camera-native (unbalanced) RGB. DNG profiles carry two, measured
/// under two calibration illuminants (typically Standard A and D65); for a white of
/// temperature T they are blended with weight `g = (1/T − 1/T₂)/(1/T₁ − 1/T₂)` clamped to
/// [0, 1], where T comes from `TemperatureTint` (DNG's Robertson method).
///
/// Conventions match AVFoundation's white-balance API: gains are per camera channel, the
/// smallest is 1.0, and applying them turns the white's camera response into equal RGB.
public struct CameraColorModel: Sendable, Hashable {
    /// The colour matrix for the colder calibration illuminant (T₁ ≤ T₂), normalised.
    public let colorMatrix1: Matrix3x3
    /// The colder calibration illuminant's temperature in kelvin.
    public let temperature1: Double
    /// The colour matrix for the hotter calibration illuminant, normalised.
    public let colorMatrix2: Matrix3x3
    /// The hotter calibration illuminant's temperature in kelvin.
    public let temperature2: Double

    /// NeutralToXY's iteration limit and convergence threshold (|Δx| + |Δy|), as in the SDK.
    static let maximumPasses = 30
    static let convergence = 1e-7

    /// A dual-illuminant model. The matrices map XYZ → camera native; order of the two does not
    /// matter. Each is scaled, as DNG's `NormalizeColorMatrix` does, so that the largest camera
    /// channel of XYZ(D50) is 1 (left alone within 0.99 ... 1.01).
    ///
    /// The DNG SDK assigns EXIF illuminants nominal temperatures (e.g. Standard A 2850 K,
    /// D65 6500 K); pass whichever the matrices were fitted for.
    public init(colorMatrix1: Matrix3x3, temperature1: Double, colorMatrix2: Matrix3x3, temperature2: Double) {
        precondition(colorMatrix1.inverse != nil && colorMatrix2.inverse != nil, "colour matrices must be invertible")
        precondition(temperature1 > 0 && temperature2 > 0, "calibration temperatures must be positive")
        let swap = temperature1 > temperature2
        self.colorMatrix1 = Self.normalized(swap ? colorMatrix2 : colorMatrix1)
        self.temperature1 = swap ? temperature2 : temperature1
        self.colorMatrix2 = Self.normalized(swap ? colorMatrix1 : colorMatrix2)
        self.temperature2 = swap ? temperature1 : temperature2
    }

    /// A single-illuminant model: the same matrix for every white (DNG uses T = 5000 K for both).
    public init(colorMatrix: Matrix3x3) {
        self.init(colorMatrix1: colorMatrix, temperature1: 5000, colorMatrix2: colorMatrix, temperature2: 5000)
    }

    /// The weight of `colorMatrix1` for a white of `temperature` kelvin: 1 at or below T₁, 0 at
    /// or above T₂, linear in reciprocal temperature between.
    public func weight(temperature: Double) -> Double {
        guard temperature1 < temperature2 else { return 1 }
        if temperature <= temperature1 { return 1 }
        if temperature >= temperature2 { return 0 }
        return (1 / temperature - 1 / temperature2) / (1 / temperature1 - 1 / temperature2)
    }

    /// The XYZ → camera-native matrix for a white of `temperature` kelvin.
    public func colorMatrix(temperature: Double) -> Matrix3x3 {
        let g = weight(temperature: temperature)
        return g * colorMatrix1 + (1 - g) * colorMatrix2
    }

    /// The XYZ → camera-native matrix for scenes lit by `white` (DNG `FindXYZtoCamera`).
    public func colorMatrix(forWhite white: Chromaticity) -> Matrix3x3 {
        colorMatrix(temperature: TemperatureTint(white).temperature)
    }

    /// The camera-native RGB of the white (DNG `SetWhiteXY`, the `AsShotNeutral` tag): the
    /// largest channel is 1 and each channel is pinned to [0.001, 1].
    public func neutral(forWhite white: Chromaticity) -> SIMD3<Double> {
        let camera = colorMatrix(forWhite: white) * white.pinnedXYZ
        let normalized = camera / camera.max()
        return normalized.clamped(lowerBound: SIMD3(repeating: 0.001), upperBound: SIMD3(repeating: 1))
    }

    /// The white whose camera-native response is `neutral` (any scale; DNG `NeutralToXY`).
    ///
    /// The matrix depends on the white, so this iterates from D50: up to 30 passes until xy
    /// moves by less than 1e-7 (|Δx| + |Δy|); if it has not converged it is most likely
    /// oscillating between two values, and the last two estimates are averaged.
    public func white(forNeutral neutral: SIMD3<Double>) -> Chromaticity {
        var last = Chromaticity.d50
        for pass in 0..<Self.maximumPasses {
            guard let inverse = colorMatrix(forWhite: last).inverse else { return last }
            var next = Chromaticity(xyzOrD50: inverse * neutral)
            if abs(next.x - last.x) + abs(next.y - last.y) < Self.convergence { return next }
            if pass == Self.maximumPasses - 1 {
                next = Chromaticity(x: (last.x + next.x) / 2, y: (last.y + next.y) / 2)
            }
            last = next
        }
        return last
    }

    /// White-balance gains for `white`: `1 / neutral`, scaled so the smallest gain is 1.0.
    /// Returned unclamped; a device checks them against its maximum gain.
    public func gains(forWhite white: Chromaticity) -> SIMD3<Double> {
        let inverse = 1 / neutral(forWhite: white)
        return inverse / inverse.min()
    }

    /// The white that the gains balance: `neutral = (1/gains) / max(1/gains)`, then
    /// `white(forNeutral:)`.
    public func white(forGains gains: SIMD3<Double>) -> Chromaticity {
        let neutral = 1 / gains
        return white(forNeutral: neutral / neutral.max())
    }

    /// White-balance gains for a temperature and tint (`TemperatureTint.chromaticity`, then
    /// `gains(forWhite:)`).
    public func gains(for temperatureTint: TemperatureTint) -> SIMD3<Double> {
        gains(forWhite: temperatureTint.chromaticity)
    }

    /// The temperature and tint that the gains balance.
    public func temperatureTint(forGains gains: SIMD3<Double>) -> TemperatureTint {
        TemperatureTint(white(forGains: gains))
    }

    /// White-balanced camera RGB (after `gains(forWhite: white)`) → XYZ adapted to
    /// `destination`, so that RGB (1, 1, 1) maps exactly to `destination` at Y = 1.
    ///
    /// As DNG does without a ForwardMatrix: invert the colour matrix for `white`, adapt with
    /// Bradford from `white` to `destination`, then scale rows (like DNG's ForwardMatrix
    /// normalisation) so the balanced neutral lands on the destination white even when
    /// `neutral(forWhite:)` pinned a channel.
    public func cameraToXYZ(forWhite white: Chromaticity, adaptedTo destination: Chromaticity = .d65) -> Matrix3x3 {
        guard let inverse = colorMatrix(forWhite: white).inverse else { return .identity }
        let adapt = ChromaticAdaptation.bradford(fromXYZ: white.pinnedXYZ, toXYZ: destination.xyz())
        // Balanced RGB (1, 1, 1) is the camera-native neutral before the gains.
        let m = adapt * inverse * Matrix3x3(diagonal: neutral(forWhite: white))
        let rowScale = destination.xyz() / (m * SIMD3(repeating: 1))
        return Matrix3x3(diagonal: rowScale) * m
    }

    /// White-balanced camera RGB → linear sRGB (D65): the colour-correction matrix of an ISP
    /// that has already applied `gains(forWhite: white)`. The camera neutral maps to (1, 1, 1).
    public func cameraToLinearSRGB(forWhite white: Chromaticity) -> Matrix3x3 {
        RGBColorSpace.sRGB.fromXYZ * cameraToXYZ(forWhite: white, adaptedTo: RGBColorSpace.sRGB.white)
    }

    /// DNG `NormalizeColorMatrix`: scale so that max(M · XYZ(D50)) = 1, unless already within 1 %.
    private static func normalized(_ m: Matrix3x3) -> Matrix3x3 {
        let peak = (m * Chromaticity.d50.xyz()).max()
        guard peak > 0, peak < 0.99 || peak > 1.01 else { return m }
        return (1 / peak) * m
    }
}
