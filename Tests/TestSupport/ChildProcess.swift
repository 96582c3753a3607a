import Foundation
import Testing

/// A program a test runs: the tool under test, ffmpeg, ffprobe, curl, a browser.
///
/// Standard output and error are read to their ends on threads of their own while the child
/// runs, so a chatty child never blocks on a full pipe, and `wait` returns the moment the
/// child has exited and its output has ended. A child still running at its deadline is
/// killed, with everything it started, and the test fails naming the command: a hang fails
/// the test instead of holding the suite, and no test sits out a deadline as its assertion.
///
/// Foundation starts the child as the leader of a process group of its own, so `signal` and
/// `kill` reach what it started too (the tool under `timeout`, a shell's commands). Its
/// standard input is `/dev/null`: ffmpeg would otherwise read keys from the terminal.
package final class ChildProcess: @unchecked Sendable {
    /// Where the child's standard output or standard error goes.
    package enum Sink {
        /// Read to its end and returned in the `Outcome`.
        case collect
        /// Thrown away (`/dev/null`).
        case discard
        /// A pipe the test reads itself, through `output` (standard output only).
        case stream
        /// An open file or pipe end the test made.
        case handle(FileHandle)
    }

    /// How a child ended and what it printed.
    package struct Outcome: Sendable {
        /// The exit status, or the signal's number when the child died of one.
        package var status: Int32
        /// Whether the child exited (rather than died of a signal).
        package var exited: Bool
        /// Standard output as bytes (empty unless collected).
        package var stdoutData: Data
        /// Standard error as bytes (empty unless collected).
        package var stderrData: Data

        /// Standard output as text. Decoded when asked: decoding binary output repairs every
        /// invalid byte, which under Swift Testing costs a backtrace each (the standard
        /// library throws inside the repair, and Swift Testing records every thrown error).
        package var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
        /// Standard error as text.
        package var stderr: String { String(decoding: stderrData, as: UTF8.self) }
        /// Whether the child exited with status 0.
        package var succeeded: Bool { exited && status == 0 }

        package init(status: Int32, exited: Bool, stdoutData: Data = Data(), stderrData: Data = Data()) {
            self.status = status
            self.exited = exited
            self.stdoutData = stdoutData
            self.stderrData = stderrData
        }
    }

    /// The child was still running at its deadline (it has been killed).
    package struct Overdue: Error, CustomStringConvertible {
        package let description: String
    }

    /// A child printed what the test cannot read (no JSON where JSON was asked for).
    package struct UnreadableOutput: Error, CustomStringConvertible {
        package let description: String
    }

    /// The command line, for messages.
    package let command: String
    private let process = Process()
    private let exit = Latch()
    private let stdoutReader: PipeReader?
    private let stderrReader: PipeReader?
    private let outputPipe: Pipe?

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: variables set on top of this process's environment.
    ///   - directory: the working directory; this process's when nil.
    package init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
        stdout: Sink = .collect, stderr: Sink = .collect
    ) throws {
        command = ([executable.path] + arguments).joined(separator: " ")
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice
        let (out, outPipe) = Self.connect(stdout)
        let (err, _) = Self.connect(stderr)
        process.standardOutput = out
        process.standardError = err
        outputPipe = outPipe
        // Foundation closes this process's copies of the pipes' write ends once the child
        // runs, so each reader sees the end when the child (and what it started) closes them.
        try process.run()
        // The exit is awaited on a thread of its own, not through `terminationHandler`: a
        // Process with a termination handler is never freed by Foundation on Linux, and with
        // it its pipes (two descriptors a child; after a few hundred CLI runs the test
        // process's descriptors passed 1024, where libmicrohttpd's select() gives up).
        let exit = exit
        Thread { [process] in
            process.waitUntilExit()
            exit.open()
        }.start()
        stdoutReader = if case .collect = stdout, let pipe = out as? Pipe { PipeReader(pipe.fileHandleForReading) } else { nil }
        stderrReader = if case .collect = stderr, let pipe = err as? Pipe { PipeReader(pipe.fileHandleForReading) } else { nil }
    }

    /// Starts the program at `path`.
    package convenience init(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
        stdout: Sink = .collect, stderr: Sink = .collect
    ) throws {
        try self.init(URL(fileURLWithPath: path), arguments, environment: environment, directory: directory, stdout: stdout, stderr: stderr)
    }

    private static func connect(_ sink: Sink) -> (Any, Pipe?) {
        switch sink {
        case .collect: return (Pipe(), nil)
        case .discard: return (FileHandle.nullDevice, nil)
        case .stream:
            let pipe = Pipe()
            return (pipe, pipe)
        case .handle(let handle): return (handle, nil)
        }
    }

    deinit {
        if process.isRunning { kill() }
    }

    /// Runs the program to its end: starts it and waits (see `wait`).
    package static func run(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
        stdout: Sink = .collect, stderr: Sink = .collect, within deadline: Duration = .seconds(120),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Outcome {
        try ChildProcess(path, arguments, environment: environment, directory: directory, stdout: stdout, stderr: stderr)
            .wait(within: deadline, sourceLocation: sourceLocation)
    }

    /// The child's process id (also its process group's).
    package var pid: Int32 { process.processIdentifier }

    /// Whether the child is still running.
    package var isRunning: Bool { !exit.isOpen }

    /// Standard output's read end, for a child started with `stdout: .stream`.
    package var output: FileHandle {
        guard let outputPipe else { preconditionFailure("\(command): standard output is not a stream") }
        return outputPipe.fileHandleForReading
    }

    /// Sends `number` to the child's process group (the child and what it started), as a
    /// terminal sends Ctrl-C. Nothing once it has exited.
    package func signal(_ number: Int32) {
        if isRunning { Glibc.kill(-pid, number) }
    }

    /// Kills the child and what it started (SIGKILL to its process group) and waits for it.
    package func kill() {
        signal(SIGKILL)
        _ = exit.wait(until: Date(timeIntervalSinceNow: 30))
    }

    /// Waits for the child to exit and its collected output to end, and returns how it
    /// ended. At the deadline the child is killed, the test fails naming the command, and
    /// this throws `Overdue`.
    package func wait(within deadline: Duration = .seconds(120), sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        if let outcome = waitForExit(within: deadline) { return outcome }
        kill()
        let message = "\(command) was still running after \(deadline); killed it"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        throw Overdue(description: message)
    }

    /// Waits up to `deadline` for the child to exit and its collected output to end; nil
    /// when it is still running then (left running: for a test to which that is an answer).
    package func waitForExit(within deadline: Duration) -> Outcome? {
        let end = Date(timeIntervalSinceNow: deadline.seconds)
        guard exit.wait(until: end),
            stdoutReader?.wait(until: end) ?? true, stderrReader?.wait(until: end) ?? true
        else { return nil }
        // waitUntilExit has returned: the status is set.
        return Outcome(
            status: process.terminationStatus, exited: process.terminationReason == .exit,
            stdoutData: stdoutReader?.data ?? Data(), stderrData: stderrReader?.data ?? Data())
    }
}

/// A gate that opens once (the child exited) and stays open.
private final class Latch: @unchecked Sendable {
    private let condition = NSCondition()
    private var opened = false

    func open() {
        condition.lock()
        opened = true
        condition.broadcast()
        condition.unlock()
    }

    var isOpen: Bool {
        condition.lock()
        defer { condition.unlock() }
        return opened
    }

    /// Waits for it to open until `deadline`; whether it did.
    func wait(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !opened && condition.wait(until: deadline) {}
        return opened
    }
}

/// Reads a file handle to its end on a thread of its own. Not on a dispatch queue: on Linux
/// every queue runs on the global pool, whose threads are capped at the core count and not
/// replaced while they block.
private final class PipeReader: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Data?

    init(_ handle: FileHandle) {
        Thread { [self] in
            let data = readToEnd(handle)
            condition.lock()
            result = data
            condition.broadcast()
            condition.unlock()
        }.start()
    }

    /// Waits for the end until `deadline`; whether it came.
    func wait(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while result == nil && condition.wait(until: deadline) {}
        return result != nil
    }

    /// What was read (once `wait` returned true).
    var data: Data {
        condition.lock()
        defer { condition.unlock() }
        return result ?? Data()
    }
}

/// Everything `handle` gives until its end, read with read(2). Not with
/// `readDataToEndOfFile()`: Foundation throws and catches an error inside it per chunk, and
/// Swift Testing records a backtrace for every thrown error, so 2.7 MB of standard output took
/// 6 s to read in a test and 2 ms in a shell.
package func readToEnd(_ handle: FileHandle) -> Data {
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
