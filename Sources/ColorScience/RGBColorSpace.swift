/// An RGB colour space: primaries, white point and transfer function, with the matrices
/// between its linear RGB and CIE XYZ (Y = 1 at white).
public struct RGBColorSpace: Sendable, Hashable {
    /// Primaries and white point.
    public let primaries: RGBPrimaries
    /// How linear light is encoded for storage.
    public let transferFunction: TransferFunction
    /// Linear RGB → XYZ; RGB (1, 1, 1) maps to the white point at Y = 1.
    public let toXYZ: Matrix3x3
    /// XYZ → linear RGB, the inverse of `toXYZ`.
    public let fromXYZ: Matrix3x3

    /// A colour space from its primaries and white (matrices derived per SMPTE RP 177) and curve.
    public init(primaries: RGBPrimaries, transferFunction: TransferFunction) {
        self.primaries = primaries
        self.transferFunction = transferFunction
        toXYZ = primaries.rgbToXYZ
        fromXYZ = primaries.xyzToRGB
    }

    /// sRGB (IEC 61966-2-1): BT.709 primaries, D65, the sRGB curve.
    public static let sRGB = RGBColorSpace(primaries: .sRGB, transferFunction: .sRGB)

    /// Display P3 (Apple): DCI-P3 primaries, D65, the sRGB curve.
    public static let displayP3 = RGBColorSpace(primaries: .displayP3, transferFunction: .sRGB)

    /// BT.2100 HLG: BT.2020 primaries, D65, the hybrid log-gamma curve.
    public static let hlgBT2020 = RGBColorSpace(primaries: .bt2020, transferFunction: .hlg)

    /// The white point.
    public var white: Chromaticity { primaries.white }

    /// Linear RGB in this space → linear RGB in `destination`. When the whites differ, XYZ is
    /// adapted with Bradford so that white maps to white.
    public func conversionMatrix(to destination: RGBColorSpace) -> Matrix3x3 {
        guard white != destination.white else { return destination.fromXYZ * toXYZ }
        return destination.fromXYZ * ChromaticAdaptation.bradford(from: white, to: destination.white) * toXYZ
    }

    /// Encoded (non-linear) RGB → XYZ.
    public func xyz(fromEncoded rgb: SIMD3<Double>) -> SIMD3<Double> {
        toXYZ * SIMD3(transferFunction.decode(rgb.x), transferFunction.decode(rgb.y), transferFunction.decode(rgb.z))
    }

    /// XYZ → encoded (non-linear) RGB, unclipped.
    public func encoded(fromXYZ xyz: SIMD3<Double>) -> SIMD3<Double> {
        let linear = fromXYZ * xyz
        return SIMD3(
            transferFunction.encode(linear.x), transferFunction.encode(linear.y), transferFunction.encode(linear.z))
    }
}
