/// Arithmetic on times and counts read from a file, held to `Int64`'s range rather than
/// trapping: a crafted file's 64-bit value must end in an error or a clamped time, never a
/// crash (issue 26).
enum SaturatingInt64 {
    /// `value` rounded to the nearest integer and held to `Int64`'s range; 0 for NaN.
    static func rounded(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        // 2^63 is the first Double above Int64.max.
        if value >= 9_223_372_036_854_775_808.0 { return .max }
        if value <= -9_223_372_036_854_775_808.0 { return .min }
        return Int64(value.rounded())
    }

    static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : result
    }

    static func difference(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (b < 0 ? .max : .min) : result
    }
}
