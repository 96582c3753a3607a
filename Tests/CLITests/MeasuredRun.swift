import Foundation
import Testing

/// Runs `capture` under `/usr/bin/time` (for its peak resident memory) and `timeout` (so a
/// command that hangs fails the test instead of holding it), with extra environment.
struct MeasuredRun {
    /// The exit status: 124 or 137 after the timeout, 128 + N after signal N.
    var status: Int32
    var stderr: String
    var stdout: String
    /// The peak resident set of the command (GNU time's %M, which follows the children).
    var peakMegabytes: Int

    /// Lines of standard error (a trailing newline does not start another).
    var stderrLines: [Substring] { stderr.split(separator: "\n") }

    init(_ arguments: [String], environment: [String: String] = [:], timeout: Int = 60, directory: URL? = nil) throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("oc-time-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments =
            ["-f", "%M", "-o", report.path, "/usr/bin/timeout", "-s", "KILL", String(timeout), ToolRunner.executable("capture").path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errData = ToolRunner.readToEnd(err.fileHandleForReading)
        let outData = ToolRunner.readAll(out.fileHandleForReading)
        process.waitUntilExit()
        status = process.terminationStatus
        stderr = String(decoding: errData(), as: UTF8.self)
        stdout = String(decoding: outData, as: UTF8.self)
        // The last line is the figure ("Command exited with non-zero status" may come first).
        let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        peakMegabytes = (text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1) / 1024
    }
}
