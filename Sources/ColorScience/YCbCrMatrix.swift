/// The weights that turn gamma-encoded R'G'B' into Y'CbCr (ITU-R BT.601 / BT.709).
///
/// `Y' = Kr·R' + Kg·G' + Kb·B'`, `Cb = (B' − Y') / (2(1 − Kb))`, `Cr = (R' − Y') / (2(1 − Kr))`,
/// with Y' in 0 ... 1 and Cb, Cr in −0.5 ... 0.5. Quantisation to code values is
/// `YCbCrRange`'s job.
public struct YCbCrMatrix: Sendable, Hashable {
    /// The red weight of luma.
    public var kr: Double
    /// The blue weight of luma.
    public var kb: Double
    /// The green weight of luma, `1 − Kr − Kb`.
    public var kg: Double { 1 - kr - kb }

    public init(kr: Double, kb: Double) {
        self.kr = kr
        self.kb = kb
    }

    /// ITU-R BT.709: Kr = 0.2126, Kb = 0.0722.
    public static let bt709 = YCbCrMatrix(kr: 0.2126, kb: 0.0722)
    /// ITU-R BT.601: Kr = 0.299, Kb = 0.114.
    public static let bt601 = YCbCrMatrix(kr: 0.299, kb: 0.114)
    /// ITU-R BT.2020 non-constant luminance (also BT.2100 HLG and PQ).
    public static let bt2020 = YCbCrMatrix(kr: 0.2627, kb: 0.0593)

    /// Weights of R', G', B' in Y'.
    public var lumaCoefficients: SIMD3<Double> { SIMD3(kr, kg, kb) }

    /// Weights of R', G', B' in Cb.
    public var cbCoefficients: SIMD3<Double> {
        let s = 1 / (2 * (1 - kb))
        return SIMD3(-kr * s, -kg * s, (1 - kb) * s)
    }

    /// Weights of R', G', B' in Cr.
    public var crCoefficients: SIMD3<Double> {
        let s = 1 / (2 * (1 - kr))
        return SIMD3((1 - kr) * s, -kg * s, -kb * s)
    }

    /// R'G'B' → (Y', Cb, Cr).
    public func ycbcr(fromRGB rgb: SIMD3<Double>) -> SIMD3<Double> {
        let y = (lumaCoefficients * rgb).sum()
        return SIMD3(y, (rgb.z - y) / (2 * (1 - kb)), (rgb.x - y) / (2 * (1 - kr)))
    }

    /// (Y', Cb, Cr) → R'G'B'.
    public func rgb(fromYCbCr ycc: SIMD3<Double>) -> SIMD3<Double> {
        let r = ycc.x + 2 * (1 - kr) * ycc.z
        let b = ycc.x + 2 * (1 - kb) * ycc.y
        let g = (ycc.x - kr * r - kb * b) / kg
        return SIMD3(r, g, b)
    }
}
