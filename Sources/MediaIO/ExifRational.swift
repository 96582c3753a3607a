/// An EXIF RATIONAL: two unsigned 32-bit integers, numerator over denominator.
///
/// EXIF stores exposure time, f-number and focal length this way, so that 1/120 s stays
/// exactly 1/120 rather than becoming 0.008333.
package struct ExifRational: Sendable, Hashable, CustomStringConvertible {
    package var numerator: UInt32
    package var denominator: UInt32

    package init(_ numerator: UInt32, _ denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The closest fraction to `value` whose denominator is at most `maximumDenominator`.
    ///
    /// Uses continued fractions, which stop at the first convergent within a relative
    /// error of 1e-7: 1/120 s gives 1/120, f/1.8 gives 9/5 and 4.2 mm gives 21/5, the
    /// forms photo tools print. Negative, NaN and out-of-range values clamp to 0 or
    /// the largest representable value.
    package init(approximating value: Double, maximumDenominator: UInt32 = 100_000) {
        guard value.isFinite, value > 0 else {
            self.init(0, 1)
            return
        }
        guard value < Double(UInt32.max) else {
            self.init(UInt32.max, 1)
            return
        }
        // Convergents h/k of the continued fraction, starting from h-1/k-1 = 1/0 and h-2/k-2 = 0/1.
        var (h0, h1): (Double, Double) = (0, 1)
        var (k0, k1): (Double, Double) = (1, 0)
        var remainder = value
        var best = (numerator: value.rounded(), denominator: 1.0)
        for _ in 0..<32 {
            let whole = remainder.rounded(.down)
            let h = whole * h1 + h0
            let k = whole * k1 + k0
            guard k <= Double(maximumDenominator), h <= Double(UInt32.max) else { break }
            best = (h, k)
            if abs(h / k - value) <= value * 1e-7 { break }
            (h0, h1) = (h1, h)
            (k0, k1) = (k1, k)
            let fraction = remainder - whole
            guard fraction > 1e-12 else { break }
            remainder = 1 / fraction
        }
        // The zeroth convergent of a value below 1/2 is 0/1; a denominator of 0 never happens.
        self.init(UInt32(best.numerator), UInt32(max(best.denominator, 1)))
    }

    /// The value as a floating-point number; 0 when the denominator is 0.
    package var doubleValue: Double {
        denominator == 0 ? 0 : Double(numerator) / Double(denominator)
    }

    package var description: String { "\(numerator)/\(denominator)" }
}
