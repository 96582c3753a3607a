/// A command line parsed against a command's declaration (`CommandSpec`): every option is
/// known, given once, and its value has passed the option's check; at most the declared
/// positional argument is there. Anything else is a `UsageError` naming the problem.
struct Arguments {
    let command: CommandSpec
    private var values: [String: String] = [:]
    private var switches: Set<String> = []
    /// The positional argument, for a command that declares one.
    private(set) var positional: String?

    init(_ words: [String], command: CommandSpec) throws {
        self.command = command
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            guard Self.looksLikeOption(word) else {
                try takePositional(word)
                continue
            }
            var name = word
            var inline: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inline = String(word[word.index(after: equals)...])
            }
            guard let option = command.option(name) else {
                throw UsageError("unknown option \(ErrorText.quoted(name)) for \(command.name) (see 'capture \(command.name) --help')")
            }
            guard values[option.name] == nil, !switches.contains(option.name) else {
                throw UsageError("\(option.name) is given twice; give it once")
            }
            guard let placeholder = option.placeholder, let validate = option.validate else {
                guard inline == nil else { throw UsageError("\(option.name) takes no value") }
                switches.insert(option.name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                // A value that is itself an option means the real value was left out.
                guard index < words.count, !words[index].hasPrefix("--"), command.option(words[index]) == nil else {
                    throw UsageError("\(option.name) needs a value (\(placeholder))")
                }
                value = words[index]
                index += 1
            }
            try validate(option.name, value)
            values[option.name] = value
        }
        if let positional, let spec = command.positional, values[spec.option] != nil {
            throw UsageError("give the \(spec.name.lowercased()) once: \(ErrorText.quoted(positional)) or \(spec.option), not both")
        }
    }

    /// Whether the switch `name` was given.
    func has(_ name: String) -> Bool { switches.contains(name) }

    /// The text given for the option `name`, or the positional argument standing for it.
    func value(_ name: String) -> String? {
        values[name] ?? (command.positional?.option == name ? positional : nil)
    }

    /// The option's value as a whole number; it passed its check, so it is one.
    func integer(_ name: String) -> Int? { value(name).flatMap(StrictNumber.integer) }

    /// The option's value as a decimal; it passed its check, so it is one.
    func decimal(_ name: String) -> Double? { value(name).flatMap { StrictNumber.decimal($0) } }

    /// The option's value as a WxH size; it passed its check, so it is one.
    func size(_ name: String) -> (width: Int, height: Int)? { value(name).flatMap(SizeValue.parse) }

    /// `-o`, `--fps` and `-h`, not `-3` or `-`.
    private static func looksLikeOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        return StrictNumber.decimal(word) == nil
    }

    private mutating func takePositional(_ word: String) throws {
        guard let spec = command.positional else {
            throw UsageError("unexpected argument \(ErrorText.quoted(word)) for \(command.name) (see 'capture \(command.name) --help')")
        }
        guard positional == nil else { throw UsageError("\(command.name) takes one \(spec.name), got a second: \(ErrorText.quoted(word))") }
        try command.option(spec.option)?.validate?(spec.name, word)
        positional = word
    }
}
