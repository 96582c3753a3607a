import Foundation
import Testing

/// ffprobe, FFmpeg's reader: the independent judge of the files and streams the tests make.
/// Every call adds `-v error` (and `-of json` for JSON), puts the file last and waits as
/// `ChildProcess.wait` does. ffprobe's exit status is not checked: what it prints about a
/// damaged file is the answer.
package enum FFprobe {
    package static let path = "/usr/bin/ffprobe"

    /// Runs ffprobe with `options` on `file` and returns how it ended, its standard error
    /// collected (for tests that check that ffprobe reads a file without complaint).
    package static func run(_ file: String, _ options: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ChildProcess.Outcome {
        try ChildProcess.run(path, ["-v", "error"] + options + [file], sourceLocation: sourceLocation)
    }

    /// ffprobe's JSON for `options` (`-show_entries ...`, `-count_frames` ...) on `file`, decoded.
    /// Throws when ffprobe printed no JSON object.
    package static func json(_ file: String, _ options: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let outcome = try run(file, options + ["-of", "json"], sourceLocation: sourceLocation)
        guard let object = try JSONSerialization.jsonObject(with: outcome.stdoutData) as? [String: Any] else {
            throw ChildProcess.UnreadableOutput(description: "ffprobe \(options.joined(separator: " ")) \(file) printed no JSON object: \(outcome.stdout.prefix(200))")
        }
        return object
    }

    /// The streams in `json(file, options)`, in order (empty when there are none).
    package static func streams(_ file: String, _ options: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try json(file, options, sourceLocation: sourceLocation)["streams"] as? [[String: Any]] ?? []
    }

    /// ffprobe's text for `options` on `file`: for the csv and default writers, which the
    /// options choose (`-of csv=p=0`).
    package static func text(_ file: String, _ options: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try run(file, options, sourceLocation: sourceLocation).stdout
    }
}
