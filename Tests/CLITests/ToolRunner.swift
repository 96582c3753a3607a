import Foundation

/// Runs the package's executables (built next to the test bundle by `swift build`).
enum ToolRunner {
    struct Output {
        var status: Int32
        var stderr: String
        /// Whether the process exited (rather than died of a signal, then `status` is the signal).
        var exited = true
        /// Standard output as bytes, for binary output (`-o -`).
        var stdoutData = Data()
        /// Standard output as text. Decoded when asked: decoding binary output repairs every
        /// invalid byte, which under Swift Testing costs a backtrace each (the standard
        /// library throws inside the repair, and Swift Testing records every thrown error),
        /// 5 s for a 2.7 MB Y4M.
        var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
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
        // standard error on a thread of its own, standard output here. Not on a dispatch
        // queue: on Linux every queue runs on the global pool, whose threads are capped at
        // the core count and not replaced while they block.
        let errData = readToEnd(err.fileHandleForReading)
        let outData = readAll(out.fileHandleForReading)
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stderr: String(decoding: errData(), as: UTF8.self), exited: process.terminationReason == .exit, stdoutData: outData)
    }

    /// Reads `handle` to its end on a thread of its own; the result waits for the end.
    static func readToEnd(_ handle: FileHandle) -> () -> Data {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var data = Data()
        Thread {
            data = readAll(handle)
            done.signal()
        }.start()
        return {
            done.wait()
            return data
        }
    }

    /// Everything `handle` gives until its end, read with read(2). Not with
    /// `readDataToEndOfFile()`: Foundation throws and catches an error inside it per chunk,
    /// and Swift Testing records a backtrace for every thrown error, so 2.7 MB of standard
    /// output took 6 s to read in a test and 2 ms in a shell.
    static func readAll(_ handle: FileHandle) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: chunk[..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    static func capture(_ arguments: String...) throws -> Output { try run("capture", arguments) }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
