/// One subcommand, declared once: its name and summary (for the usage list), what its
/// command line looks like, its options and what runs it. The parser (`Arguments`), the
/// command's `--help` and the tool's usage all come from this declaration, so they cannot
/// disagree.
struct CommandSpec: Sendable {
    /// What a positional argument is, for the commands that take one.
    struct Positional: Sendable {
        /// Its name in the synopsis and messages, e.g. `DEVICE`.
        let name: String
        /// The option it stands for; giving both is refused.
        let option: String
    }

    let name: String
    /// One line for the tool's list of commands.
    let summary: String
    /// The command line after `capture NAME`, e.g. `[options] -o FILE.y4m`; by default each
    /// option in brackets, as in `[--frames N] [--json]`.
    let synopsis: String
    /// What the command does, printed before its options (kept as written).
    let description: String
    let options: [OptionSpec]
    let positional: Positional?
    let run: @Sendable (Arguments) throws -> Int32

    init(
        name: String, summary: String, synopsis: String? = nil, description: String, options: [OptionSpec], positional: Positional? = nil,
        run: @escaping @Sendable (Arguments) throws -> Int32
    ) {
        self.name = name
        self.summary = summary
        self.synopsis = synopsis
            ?? ((positional.map { ["[\($0.name)]"] } ?? []) + options.map { "[\($0.name)\($0.placeholder.map { " \($0)" } ?? "")]" })
            .joined(separator: " ")
        self.description = description
        // Every command takes --help; declaring it here keeps it in the help and the parser.
        self.options = options + [.flag("--help", short: "-h", help: "Show this help")]
        self.positional = positional
        self.run = run
    }

    /// The option called `name` or with that one-letter alias.
    func option(_ name: String) -> OptionSpec? {
        options.first { $0.name == name || $0.short == name }
    }

    /// The full `--help` text.
    var help: String {
        var lines = ["Usage: capture \(name) \(synopsis)", "", description, "", "Options:"]
        for option in options {
            var label = "  " + (option.short.map { "\($0), " } ?? "") + option.name
            if let placeholder = option.placeholder { label += " \(placeholder)" }
            let text = Self.wrap(option.help, width: Self.width - Self.column)
            let indent = String(repeating: " ", count: Self.column)
            if label.count < Self.column - 1 {
                lines.append(label + String(repeating: " ", count: Self.column - label.count) + text[0])
            } else {
                lines.append(label)
                lines.append(indent + text[0])
            }
            lines += text.dropFirst().map { indent + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// Width of the help text, and the column where an option's help starts.
    static let width = 100
    static let column = 23

    /// `text` in lines of at most `width` characters, broken between words.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }
}
