/// CIE 1960 UCS (u, v) and CIE 1976 UCS (u′, v′) coordinates.
///
/// Correlated colour temperature and Duv are defined in 1960 uv; u′v′ (v′ = 1.5 v) is the more
/// perceptually uniform diagram used for chromaticity differences.
extension Chromaticity {
    /// CIE 1960 UCS: `u = 4x / (−2x + 12y + 3)`, `v = 6y / (−2x + 12y + 3)`.
    public var uv: SIMD2<Double> {
        let d = -2 * x + 12 * y + 3
        return SIMD2(4 * x / d, 6 * y / d)
    }

    /// CIE 1976 UCS: `u′ = u`, `v′ = 9y / (−2x + 12y + 3)`.
    public var uvPrime: SIMD2<Double> {
        let d = -2 * x + 12 * y + 3
        return SIMD2(4 * x / d, 9 * y / d)
    }

    /// The chromaticity of CIE 1960 (u, v): `x = 3u / (2u − 8v + 4)`, `y = 2v / (2u − 8v + 4)`.
    public init(uv: SIMD2<Double>) {
        let d = 2 * uv.x - 8 * uv.y + 4
        self.init(x: 3 * uv.x / d, y: 2 * uv.y / d)
    }

    /// The chromaticity of CIE 1976 (u′, v′), i.e. of 1960 (u′, v′ / 1.5).
    public init(uvPrime: SIMD2<Double>) {
        self.init(uv: SIMD2(uvPrime.x, uvPrime.y / 1.5))
    }
}
