/// Numbers as people type them in decimal, and nothing else: no sign '+', no spaces, no hex
/// (`0x10`), no exponent (`1e9`), no `inf` or `nan`, which Swift's `Double(_:)` and `Int(_:)`
/// would accept and which a range check after conversion is too late to catch.
enum StrictNumber {
    /// A whole number such as `12` or `-3`; nil for anything else or when it overflows `Int`.
    static func integer(_ text: String) -> Int? {
        guard isDigits(text.hasPrefix("-") ? text.dropFirst() : Substring(text)) else { return nil }
        return Int(text)
    }

    /// A whole number 0 ... `UInt64.max` such as `42`.
    static func unsigned(_ text: String) -> UInt64? {
        guard isDigits(Substring(text)) else { return nil }
        return UInt64(text)
    }

    /// A decimal such as `30`, `29.97`, `-0.5` or `.5`. Long digit strings give large but
    /// finite values or infinity, which the caller's range check then refuses.
    static func decimal(_ text: String) -> Double? {
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first else { return nil }
        let fraction = parts.count > 1 ? parts[1] : ""
        guard whole.isEmpty || isDigits(whole), fraction.isEmpty || isDigits(fraction), !(whole.isEmpty && fraction.isEmpty) else {
            return nil
        }
        guard let value = Double(text), !value.isNaN else { return nil }
        return value
    }

    /// A decimal within `range`; nil when it is not one or lies outside.
    static func decimal(_ text: String, in range: ClosedRange<Double>, excludingLowerBound: Bool = false) -> Double? {
        guard let value = decimal(text), range.contains(value), !(excludingLowerBound && value == range.lowerBound) else { return nil }
        return value
    }

    /// Comma-separated decimals, as in `2,1,1.5`; nil if any part is not one.
    static func decimals(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { decimal(String($0)) }
        guard parts.allSatisfy({ $0 != nil }) else { return nil }
        return parts.map { $0! }
    }

    /// `range` as people read it: "1...1000000", "0.1...60".
    static func describe(_ range: ClosedRange<Double>) -> String { "\(describe(range.lowerBound))...\(describe(range.upperBound))" }

    /// 30 as "30", 0.1 as "0.1".
    static func describe(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
