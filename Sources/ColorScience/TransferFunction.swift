import Foundation

/// An opto-electronic transfer function: linear light ↔ non-linear ("gamma-encoded")
/// signal, both normalised to 0 ... 1.
///
/// `encode` is the OETF (what a camera applies), `decode` its inverse. Inputs outside
/// 0 ... 1 are extended by odd symmetry below zero and by the curve above one, so that
/// round trips stay exact; callers clamp where they need to.
public enum TransferFunction: Sendable, Hashable, CaseIterable {
    /// No curve: signal = linear light.
    case linear
    /// IEC 61966-2-1 sRGB: `V = 12.92 L` for `L ≤ 0.0031308`, else `1.055 L^(1/2.4) − 0.055`.
    case sRGB
    /// ITU-R BT.709 (also BT.601 and BT.2020 at 10 bits): `V = 4.5 L` for `L < 0.018`,
    /// else `1.099 L^0.45 − 0.099`.
    case bt709
    /// ARIB STD-B67 hybrid log-gamma (ITU-R BT.2100 HLG), the scene-referred OETF: `V = √(3L)`
    /// for `L ≤ 1/12`, else `a·ln(12L − b) + c` with a = 0.17883277, b = 1 − 4a,
    /// c = 0.5 − a·ln(4a). V(1/12) = 0.5, V(1) = 1.
    case hlg

    /// HLG's constants (BT.2100 table 5).
    private static let hlgA = 0.17883277
    private static let hlgB = 1 - 4 * hlgA
    private static let hlgC = 0.5 - hlgA * log(4 * hlgA)

    /// Linear light → signal.
    public func encode(_ linear: Double) -> Double {
        if linear < 0 { return -encode(-linear) }
        switch self {
        case .linear:
            return linear
        case .sRGB:
            return linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
        case .bt709:
            return linear < 0.018 ? 4.5 * linear : 1.099 * pow(linear, 0.45) - 0.099
        case .hlg:
            let a = Self.hlgA, b = Self.hlgB, c = Self.hlgC
            return linear <= 1.0 / 12 ? (3 * linear).squareRoot() : a * log(12 * linear - b) + c
        }
    }

    /// Signal → linear light.
    public func decode(_ signal: Double) -> Double {
        if signal < 0 { return -decode(-signal) }
        switch self {
        case .linear:
            return signal
        case .sRGB:
            return signal <= 0.04045 ? signal / 12.92 : pow((signal + 0.055) / 1.055, 2.4)
        case .bt709:
            // 0.081 = 4.5 × 0.018, the signal where the curve leaves its linear segment.
            return signal < 0.081 ? signal / 4.5 : pow((signal + 0.099) / 1.099, 1 / 0.45)
        case .hlg:
            let a = Self.hlgA, b = Self.hlgB, c = Self.hlgC
            return signal <= 0.5 ? signal * signal / 3 : (exp((signal - c) / a) + b) / 12
        }
    }

    /// Linear light → signal, in single precision.
    public func encode(_ linear: Float) -> Float { Float(encode(Double(linear))) }

    /// Signal → linear light, in single precision.
    public func decode(_ signal: Float) -> Float { Float(decode(Double(signal))) }
}
