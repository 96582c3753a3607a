/// `-o FILE`, and `--metadata FILE` beside it: the files a command writes, checked by the
/// rules of `OutputTarget` before the camera starts.
enum OutputOptions {
    /// `-o, --output FILE`; `standardOutput` is nil when `-` may stand for standard output,
    /// or the message refusing it.
    static func option(_ placeholder: String, help: String, standardOutput refusal: String? = nil) -> OptionSpec {
        PathValue.output("--output", short: "-o", placeholder: placeholder, standardOutput: refusal, help: help)
    }

    /// Where `-o` points; `missing` says what the file is for when `-o` was left out.
    static func target(_ args: Arguments, placeholder: String, missing: String) throws -> OutputTarget {
        guard let text = args.value("--output") else { throw UsageError("missing -o \(placeholder) (\(missing))") }
        return try OutputTarget.check(text, option: "-o", overwrite: args.has("--overwrite"))
    }

    /// Where `--metadata` points, refused when it is the file `-o` names (one would
    /// overwrite the other).
    static func metadataTarget(_ args: Arguments, besides output: OutputTarget) throws -> OutputTarget? {
        guard let text = args.value("--metadata") else { return nil }
        let target = try OutputTarget.check(text, option: "--metadata", overwrite: args.has("--overwrite"))
        guard !target.isSameFile(as: output) else {
            throw UsageError("--metadata and -o name the same file (\(ErrorText.quoted(text))); give each its own")
        }
        return target
    }
}
