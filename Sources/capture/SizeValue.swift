/// A `WxH` size such as `1280x720`: two decimal whole numbers and a lowercase or capital x,
/// nothing else (no spaces, signs, third part or hex).
enum SizeValue {
    /// The largest side any command accepts. The simulated cameras' largest format is
    /// 4032x3024 and V4L2 devices rarely go past 4096; 8192 leaves room for those while a
    /// frame stays under 256 MB as BGRA (a 65536x65536 request once asked for 17 GB).
    static let largestSide = 8192

    /// The size, or nil when `text` is not a plain `WxH`.
    static func parse(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "X", omittingEmptySubsequences: false)
        }
        guard parts.count == 2, let width = StrictNumber.unsigned(String(parts[0])), let height = StrictNumber.unsigned(String(parts[1])),
            width <= UInt64(Int.max), height <= UInt64(Int.max)
        else { return nil }
        return (Int(width), Int(height))
    }

    /// A `--size` option whose sides lie in `sides` (and are even when `even`).
    static func option(_ name: String, sides: ClosedRange<Int> = 1...largestSide, even: Bool = false, help: String) -> OptionSpec {
        let allowed = "WxH with \(even ? "even " : "")sides in \(sides.lowerBound)...\(sides.upperBound), as in 1280x720"
        return .value(name, "WxH", help: help) { option, text in
            guard let (width, height) = parse(text), sides.contains(width), sides.contains(height),
                !even || (width % 2 == 0 && height % 2 == 0)
            else { throw UsageError.value(option, text, allowed: allowed) }
        }
    }
}
