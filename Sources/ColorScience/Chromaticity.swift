/// A CIE 1931 xy chromaticity.
public struct Chromaticity: Sendable, Hashable {
    /// x = X / (X + Y + Z).
    public var x: Double
    /// y = Y / (X + Y + Z).
    public var y: Double

    /// A chromaticity from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// CIE standard illuminant D65 in the 4-decimal form used by sRGB, BT.709 and the DNG SDK
    /// (0.3127, 0.3290). `StandardIlluminant.d65` has the CIE 015 5-decimal form.
    public static let d65 = Chromaticity(x: 0.3127, y: 0.3290)

    /// CIE standard illuminant D50 in the 4-decimal form of the DNG SDK (0.3457, 0.3585), which
    /// is also the ICC profile connection space white to 4 decimals.
    public static let d50 = Chromaticity(x: 0.3457, y: 0.3585)

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

    /// This chromaticity restricted to where real colours can lie, as the DNG SDK's `XYtoXYZ`
    /// does: x and y pinned to [1e-6, 0.999999] and scaled down when x + y > 0.999999.
    ///
    /// Extreme temperature/tint settings can produce coordinates outside the spectrum locus
    /// (even negative ones); pinning keeps the XYZ that follows finite and positive.
    public var pinned: Chromaticity {
        let limit = 0.999999
        var p = Chromaticity(x: min(max(x, 1e-6), limit), y: min(max(y, 1e-6), limit))
        if p.x + p.y > limit {
            let scale = limit / (p.x + p.y)
            p.x *= scale
            p.y *= scale
        }
        return p
    }

    /// The XYZ of `pinned` at Y = 1: the DNG SDK's `XYtoXYZ`, safe for any input.
    public var pinnedXYZ: SIMD3<Double> { pinned.xyz() }

    /// The chromaticity of XYZ, or D50 (`Chromaticity.d50`) when X + Y + Z ≤ 0: the DNG SDK's
    /// `XYZtoXY`, which never fails.
    public init(xyzOrD50 xyz: SIMD3<Double>) {
        let sum = xyz.sum()
        if sum > 0 {
            self.init(x: xyz.x / sum, y: xyz.y / sum)
        } else {
            self = .d50
        }
    }
}
