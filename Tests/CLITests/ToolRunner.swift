import Foundation

/// Runs the package's executables (built next to the test bundle by `swift build`).
enum ToolRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the process exited (rather than died of a signal, then `status` is the signal).
        var exited = true
        /// Standard output as bytes, for binary output (`-o -`).
        var stdoutData = Data()
    }

    static var buildFolder: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    static func executable(_ name: String) -> URL { buildFolder.appendingPathComponent(name) }

    /// Runs the tool with `arguments`, in `directory` when given, and waits for it.
    static func run(_ name: String, _ arguments: [String], path: String? = nil, directory: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = path.map { URL(fileURLWithPath: $0) } ?? executable(name)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes before waiting so a chatty child cannot block on a full pipe:
        // standard error on a queue of its own, standard output here. Not on
        // DispatchQueue.global(): its threads are capped at the core count and not replaced
        // while they block, so a read could wait seconds for one while the child sat on a
        // full pipe (a 2-frame 720p Y4M to stdout took 6.6 s instead of 0.3 s).
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue(label: "ToolRunner.stderr").async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), exited: process.terminationReason == .exit, stdoutData: outData)
    }

    static func capture(_ arguments: String...) throws -> Output { try run("capture", arguments) }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
