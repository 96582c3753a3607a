/// A CIE 1931 xy chromaticity.
public struct Chromaticity: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// CIE standard illuminant D65 (CIE 015:2004, 4-decimal form used by sRGB and BT.709).
    public static let d65 = Chromaticity(x: 0.3127, y: 0.3290)

    /// The XYZ tristimulus values of this chromaticity at luminance `Y` (xyY → XYZ).
    public func xyz(luminance Y: Double = 1) -> SIMD3<Double> {
        guard y != 0 else { return .zero }
        return SIMD3(x * Y / y, Y, (1 - x - y) * Y / y)
    }

    /// The chromaticity of XYZ tristimulus values, or `nil` for black (X + Y + Z = 0).
    public init?(xyz: SIMD3<Double>) {
        let sum = xyz.sum()
        guard sum != 0 else { return nil }
        self.init(x: xyz.x / sum, y: xyz.y / sum)
    }
}
