import Foundation

/// A mistake in how the tool was called: printed as one line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The arguments of one subcommand: `--name value` options, `--flag` switches and positionals.
struct Arguments {
    private var options: [String: String] = [:]
    private var switches: Set<String> = []
    private(set) var positionals: [String] = []

    /// Parses `words`, accepting only the listed options (which take a value) and switches.
    init(_ words: [String], options allowedOptions: Set<String>, switches allowedSwitches: Set<String>, aliases: [String: String] = [:]) throws {
        var index = 0
        while index < words.count {
            var word = words[index]
            index += 1
            if let alias = aliases[word] { word = alias }
            guard word.hasPrefix("-"), word != "-" else {
                positionals.append(word)
                continue
            }
            var value: String?
            if let equals = word.firstIndex(of: "="), word.hasPrefix("--") {
                value = String(word[word.index(after: equals)...])
                word = String(word[..<equals])
            }
            if allowedSwitches.contains(word) {
                guard value == nil else { throw UsageError("\(word) takes no value") }
                switches.insert(word)
            } else if allowedOptions.contains(word) {
                if value == nil {
                    guard index < words.count else { throw UsageError("\(word) needs a value") }
                    value = words[index]
                    index += 1
                }
                options[word] = value
            } else {
                throw UsageError("unknown option '\(word)'")
            }
        }
    }

    func has(_ name: String) -> Bool { switches.contains(name) }
    func value(_ name: String) -> String? { options[name] }

    /// A whole number option in a range.
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = options[name] else { return nil }
        guard let number = Int(text) else { throw UsageError("\(name) must be a whole number, not '\(text)'") }
        guard range.contains(number) else {
            throw UsageError("\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(number)")
        }
        return number
    }

    /// A positive decimal option.
    func positiveNumber(_ name: String) throws -> Double? {
        guard let text = options[name] else { return nil }
        guard let number = Double(text), number.isFinite, number > 0 else {
            throw UsageError("\(name) must be a positive number, not '\(text)'")
        }
        return number
    }

    /// A WxH size option, e.g. 1280x720.
    func size(_ name: String) throws -> (Int, Int)? {
        guard let text = options[name] else { return nil }
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw UsageError("\(name) must look like 1280x720, not '\(text)'") }
        return (parts[0], parts[1])
    }
}
