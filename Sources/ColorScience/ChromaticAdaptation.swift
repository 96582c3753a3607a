/// Chromatic adaptation transforms: XYZ seen under one white → corresponding XYZ under another.
///
/// A von Kries transform scales cone-like responses by the ratio of the two whites' responses:
/// `M = C⁻¹ · diag(C·white₂ / C·white₁) · C`. Bradford's C is the one ICC v4, Lindbloom and the
/// DNG SDK (`MapWhiteMatrix`) use.
public enum ChromaticAdaptation {
    /// The Bradford cone-response matrix (Lam 1985).
    public static let bradfordConeResponse = Matrix3x3(rowMajor: [
        0.8951, 0.2664, -0.1614,
        -0.7502, 1.7135, 0.0367,
        0.0389, -0.0685, 1.0296,
    ])

    /// The Bradford transform from white `source` to white `destination` (both at Y = 1).
    /// E.g. D50 (0.3457, 0.3585) → D65 (0.3127, 0.3290) gives the matrix ICC-to-sRGB uses.
    public static func bradford(from source: Chromaticity, to destination: Chromaticity) -> Matrix3x3 {
        vonKries(from: source.xyz(), to: destination.xyz(), coneResponse: bradfordConeResponse)
    }

    /// The Bradford transform between two whites given as XYZ.
    public static func bradford(fromXYZ source: SIMD3<Double>, toXYZ destination: SIMD3<Double>) -> Matrix3x3 {
        vonKries(from: source, to: destination, coneResponse: bradfordConeResponse)
    }

    /// A von Kries-type transform with the given cone-response matrix (identity = XYZ scaling).
    public static func vonKries(
        from source: SIMD3<Double>, to destination: SIMD3<Double>, coneResponse: Matrix3x3
    ) -> Matrix3x3 {
        guard let inverse = coneResponse.inverse else { return .identity }
        let gain = (coneResponse * destination) / (coneResponse * source)
        return inverse * Matrix3x3(diagonal: gain) * coneResponse
    }
}
