import Foundation

/// A CIE 1976 L*a*b* colour, relative to a reference white.
public struct Lab: Sendable, Hashable {
    /// Lightness, 0 (black) ... 100 (the reference white).
    public var L: Double
    /// Red (+) – green (−) opponent coordinate.
    public var a: Double
    /// Yellow (+) – blue (−) opponent coordinate.
    public var b: Double

    /// A colour from its coordinates.
    public init(L: Double, a: Double, b: Double) {
        self.L = L
        self.a = a
        self.b = b
    }

    /// CIELAB of XYZ relative to the reference white XYZ (same scale, white Y usually 1).
    public init(xyz: SIMD3<Double>, referenceWhite white: SIMD3<Double>) {
        let f = (xyz / white).map(Lab.f)
        self.init(L: 116 * f.y - 16, a: 500 * (f.x - f.y), b: 200 * (f.y - f.z))
    }

    /// CIELAB of XYZ relative to a white chromaticity at Y = 1.
    public init(xyz: SIMD3<Double>, referenceWhite white: Chromaticity) {
        self.init(xyz: xyz, referenceWhite: white.xyz())
    }

    /// The XYZ of this colour relative to the reference white XYZ.
    public func xyz(referenceWhite white: SIMD3<Double>) -> SIMD3<Double> {
        let fy = (L + 16) / 116
        let f = SIMD3(fy + a / 500, fy, fy - b / 200)
        return f.map(Lab.fInverse) * white
    }

    /// The XYZ of this colour relative to a white chromaticity at Y = 1.
    public func xyz(referenceWhite white: Chromaticity) -> SIMD3<Double> {
        xyz(referenceWhite: white.xyz())
    }

    /// Chroma C*ab = √(a² + b²).
    public var chroma: Double { (a * a + b * b).squareRoot() }

    /// Hue angle h_ab in degrees, 0 ..< 360 (0 for neutrals).
    public var hue: Double {
        guard a != 0 || b != 0 else { return 0 }
        let h = atan2(b, a) * 180 / .pi
        return h < 0 ? h + 360 : h
    }

    // CIE 015 exact fractions: ε = (6/29)³, κ = (29/3)³; the linear segment keeps f continuous.
    private static let epsilon = 216.0 / 24389
    private static let kappa = 24389.0 / 27

    private static func f(_ t: Double) -> Double {
        t > epsilon ? cbrt(t) : (kappa * t + 16) / 116
    }

    private static func fInverse(_ f: Double) -> Double {
        let cube = f * f * f
        return cube > epsilon ? cube : (116 * f - 16) / kappa
    }
}

extension SIMD3 where Scalar == Double {
    /// Applies `transform` to each component.
    fileprivate func map(_ transform: (Double) -> Double) -> SIMD3<Double> {
        SIMD3(transform(x), transform(y), transform(z))
    }
}
