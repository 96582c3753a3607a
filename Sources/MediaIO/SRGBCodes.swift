import Foundation

/// 8-bit sRGB codes to linear light and back, for scene pictures: tables, so a picture of
/// tens of megapixels converts without a `pow` per sample.
enum SRGBCodes {
    /// The linear value of each code (IEC 61966-2-1 curve).
    static let linear: [Float] = (0..<256).map { decode(Float($0) / 255) }

    /// The linear value halfway between code c and c + 1, which decides the rounding.
    private static let boundaries: [Float] = (0..<255).map { (linear[$0] + linear[$0 + 1]) / 2 }

    /// A first guess of the code for each of `guessSteps` + 1 linear levels in 0 ... 1.
    private static let guessSteps = 4096
    private static let guesses: [UInt8] = (0...guessSteps).map { step in
        UInt8(min(max((encode(Float(step) / Float(guessSteps)) * 255).rounded(.down), 0), 255))
    }

    /// The sRGB curve, encoded value of linear `value` (0 ... 1).
    static func encode(_ value: Float) -> Float {
        value <= 0.003_130_8 ? 12.92 * value : 1.055 * pow(value, 1 / 2.4) - 0.055
    }

    /// Linear value of encoded `value` (0 ... 1).
    static func decode(_ value: Float) -> Float {
        value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// The code nearest to linear `value` (clamped to 0 ... 1): a table's first guess, then
    /// moved across the halfway points, so a code's own linear value gives back that code.
    @inline(__always)
    static func code(_ value: Float) -> UInt8 {
        let v = min(max(value, 0), 1)
        var code = Int(guesses[Int(v * Float(guessSteps))])
        while code < 255 && v > boundaries[code] { code += 1 }
        while code > 0 && v <= boundaries[code - 1] { code -= 1 }
        return UInt8(code)
    }
}
