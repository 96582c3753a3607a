/// The primaries and white point of an additive RGB colour space, and the matrices
/// between its linear RGB and CIE XYZ.
public struct RGBPrimaries: Sendable, Hashable {
    public var red: Chromaticity
    public var green: Chromaticity
    public var blue: Chromaticity
    public var white: Chromaticity

    public init(red: Chromaticity, green: Chromaticity, blue: Chromaticity, white: Chromaticity) {
        self.red = red
        self.green = green
        self.blue = blue
        self.white = white
    }

    /// ITU-R BT.709, which sRGB (IEC 61966-2-1) shares: R (0.64, 0.33), G (0.30, 0.60),
    /// B (0.15, 0.06), white D65.
    public static let bt709 = RGBPrimaries(
        red: Chromaticity(x: 0.64, y: 0.33), green: Chromaticity(x: 0.30, y: 0.60),
        blue: Chromaticity(x: 0.15, y: 0.06), white: .d65)

    /// sRGB: the same primaries and white as BT.709.
    public static let sRGB = bt709

    /// Display P3: DCI-P3 primaries with a D65 white.
    public static let displayP3 = RGBPrimaries(
        red: Chromaticity(x: 0.680, y: 0.320), green: Chromaticity(x: 0.265, y: 0.690),
        blue: Chromaticity(x: 0.150, y: 0.060), white: .d65)

    /// ITU-R BT.2020 (and BT.2100): R (0.708, 0.292), G (0.170, 0.797), B (0.131, 0.046),
    /// white D65.
    public static let bt2020 = RGBPrimaries(
        red: Chromaticity(x: 0.708, y: 0.292), green: Chromaticity(x: 0.170, y: 0.797),
        blue: Chromaticity(x: 0.131, y: 0.046), white: .d65)

    /// Linear RGB → XYZ, scaled so that RGB (1, 1, 1) is the white point at Y = 1.
    ///
    /// Built from the primaries (SMPTE RP 177): the columns are the primaries' XYZ at unit
    /// luminance, each scaled so that their sum is the white point.
    public var rgbToXYZ: Matrix3x3 {
        let p = Matrix3x3(red.xyz(), green.xyz(), blue.xyz()).transposed
        guard let inverse = p.inverse else { return .identity }
        let s = inverse * white.xyz()
        return p * Matrix3x3(diagonal: s)
    }

    /// XYZ → linear RGB, the inverse of `rgbToXYZ`.
    public var xyzToRGB: Matrix3x3 {
        rgbToXYZ.inverse ?? .identity
    }

    /// The luminance (Y) weights of linear R, G and B: the middle row of `rgbToXYZ`.
    public var luminanceCoefficients: SIMD3<Double> {
        rgbToXYZ.rows.1
    }
}
