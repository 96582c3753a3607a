/// One option of a command: its name, what its value looks like, its help and the check its
/// value must pass while the command line is parsed (before any camera starts). The parser,
/// the help text and the value checks of a command all come from its list of these.
struct OptionSpec: Sendable {
    /// Checks a value; throws a `UsageError` naming the option and the values it takes.
    typealias Validator = @Sendable (_ option: String, _ value: String) throws -> Void

    /// `--fps`.
    let name: String
    /// A one-letter alias such as `-o`, or nil.
    let short: String?
    /// The value's placeholder in the help (`N`, `WxH`); nil for a switch, which takes no value.
    let placeholder: String?
    /// What the option does, one or more sentences; the help wraps it.
    let help: String
    let validate: Validator?

    /// A switch such as `--mirror`.
    static func flag(_ name: String, short: String? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, placeholder: nil, help: help, validate: nil)
    }

    /// An option whose value `validate` checks.
    static func value(_ name: String, _ placeholder: String, short: String? = nil, help: String, validate: @escaping Validator) -> OptionSpec {
        OptionSpec(name: name, short: short, placeholder: placeholder, help: help, validate: validate)
    }

    /// A whole number in `range`.
    static func integer(_ name: String, _ placeholder: String = "N", in range: ClosedRange<Int>, help: String) -> OptionSpec {
        value(name, placeholder, help: help) { option, text in
            guard let number = StrictNumber.integer(text), range.contains(number) else {
                throw UsageError.value(option, text, allowed: "a whole number in \(range.lowerBound)...\(range.upperBound)")
            }
        }
    }

    /// A decimal in `range` (above its lower bound when `excludingLowerBound`); `unit` ends
    /// the description of the allowed values, as in "a number in 0...200000 lux".
    static func decimal(
        _ name: String, _ placeholder: String, in range: ClosedRange<Double>, excludingLowerBound: Bool = false, unit: String = "",
        help: String
    ) -> OptionSpec {
        let allowed = Self.describe(range, excludingLowerBound: excludingLowerBound) + (unit.isEmpty ? "" : " \(unit)")
        return value(name, placeholder, help: help) { option, text in
            guard StrictNumber.decimal(text, in: range, excludingLowerBound: excludingLowerBound) != nil else {
                throw UsageError.value(option, text, allowed: allowed)
            }
        }
    }

    /// One of `choices`, matched without regard to case.
    static func choice(_ name: String, _ placeholder: String, _ choices: [String], help: String) -> OptionSpec {
        value(name, placeholder, help: help) { option, text in
            guard choices.contains(where: { $0.lowercased() == text.lowercased() }) else {
                throw UsageError.value(option, text, allowed: Self.list(choices))
            }
        }
    }

    /// "a number in 0...1" or "a positive number up to 1000".
    static func describe(_ range: ClosedRange<Double>, excludingLowerBound: Bool) -> String {
        if excludingLowerBound && range.lowerBound == 0 { return "a positive number up to \(StrictNumber.describe(range.upperBound))" }
        if excludingLowerBound { return "a number above \(StrictNumber.describe(range.lowerBound)), up to \(StrictNumber.describe(range.upperBound))" }
        return "a number in \(StrictNumber.describe(range))"
    }

    /// "a, b or c".
    static func list(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}
