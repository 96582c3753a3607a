import Foundation
import Testing
import TestSupport

/// Runs `capture` under `/usr/bin/time` (for its peak resident memory), with extra
/// environment; a command still running after `timeout` seconds is killed and fails the test.
struct MeasuredRun {
    /// The exit status: 128 + N after signal N.
    var status: Int32
    var stderr: String
    var stdout: String
    /// The peak resident set of the command (GNU time's %M, which follows the children).
    var peakMegabytes: Int

    /// Lines of standard error (a trailing newline does not start another).
    var stderrLines: [Substring] { stderr.split(separator: "\n") }

    init(
        _ arguments: [String], environment: [String: String] = [:], timeout: Int = 60, directory: URL? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("oc-time-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let outcome = try ChildProcess.run(
            "/usr/bin/time", ["-f", "%M", "-o", report.path, ToolRunner.executable("capture").path] + arguments, environment: environment,
            directory: directory, within: .seconds(timeout), sourceLocation: sourceLocation)
        status = outcome.status
        stderr = outcome.stderr
        stdout = outcome.stdout
        // The last line is the figure ("Command exited with non-zero status" may come first).
        let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        peakMegabytes = (text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1) / 1024
    }
}
