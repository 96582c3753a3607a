import Foundation
import Testing
import TestSupport

/// Runs the package's executables (built next to the test bundle by `swift build`) and other
/// programs, through `ChildProcess`.
enum ToolRunner {
    typealias Output = ChildProcess.Outcome

    static var buildFolder: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    static func executable(_ name: String) -> URL { buildFolder.appendingPathComponent(name) }

    /// Runs the package's tool `name` (or the program at `path`) with `arguments`, in
    /// `directory` when given, and waits for it (see `ChildProcess.wait`; a run past the
    /// deadline fails the test naming the command).
    static func run(
        _ name: String, _ arguments: [String], path: String? = nil, directory: URL? = nil, within deadline: Duration = .seconds(120)
    ) throws -> Output {
        try ChildProcess.run(path ?? executable(name).path, arguments, directory: directory, within: deadline)
    }

    static func capture(_ arguments: String...) throws -> Output { try run("capture", arguments) }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
