import Foundation

/// The checks on a path given on the command line, made while it is parsed: a file name,
/// not an empty string, a folder (`dir/`, `.`, `..`) or text with control characters or
/// surrounding spaces that a shell quoting slip put there.
enum PathValue {
    /// An option naming a file to write; `-` stands for standard output when
    /// `standardOutput` is nil, and is refused with that message otherwise.
    static func output(_ name: String, short: String? = nil, placeholder: String, standardOutput refusal: String? = nil, help: String) -> OptionSpec {
        .value(name, placeholder, short: short, help: help) { option, text in
            if text == "-" {
                if let refusal { throw UsageError(refusal) }
                return
            }
            try check(option, text)
        }
    }

    /// An option naming a file to read.
    static func input(_ name: String, placeholder: String, help: String) -> OptionSpec {
        .value(name, placeholder, help: help) { option, text in try check(option, text) }
    }

    /// Refuses what cannot be a file's name.
    static func check(_ option: String, _ text: String) throws {
        let allowed = "a file name"
        guard !text.isEmpty, text.trimmingCharacters(in: .whitespaces) == text else { throw UsageError.value(option, text, allowed: allowed) }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw UsageError.value(option, text, allowed: "a file name without control characters")
        }
        let last = text.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard !last.isEmpty, last != ".", last != ".." else {
            throw UsageError("\(option) \(ErrorText.quoted(text)) names a folder (it ends in '\(last.isEmpty ? "/" : String(last))'); give a file name")
        }
    }
}
