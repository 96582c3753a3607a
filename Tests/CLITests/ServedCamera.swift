import Foundation
import Testing
import TestSupport

/// `capture serve` running on a free loopback port, and curl (the real client) to talk to it.
/// Sendable: after init only `curl` and `stop` are called, which share nothing mutable.
final class ServedCamera: @unchecked Sendable {
    let process: ChildProcess
    let base: String
    /// The port it listens on (from `base`).
    let port: UInt16

    /// Starts the server with `options` and waits for the line naming its URL.
    init(_ options: [String] = []) throws {
        // --duration: a server whose test process died (killed, crashed) ends by itself.
        process = try ChildProcess(
            ToolRunner.executable("capture"), ["serve", "--listen", "127.0.0.1:0", "--preset", "352x288", "--duration", "120"] + options,
            stdout: .stream, stderr: .discard)
        // The first line is "serving http://127.0.0.1:PORT/ (...)": read it byte by byte.
        var line = Data()
        var byte = [UInt8](repeating: 0, count: 1)
        while read(process.output.fileDescriptor, &byte, 1) == 1, byte[0] != 0x0A { line.append(byte[0]) }
        let text = String(decoding: line, as: UTF8.self)
        guard let start = text.range(of: "http://"), let end = text[start.lowerBound...].firstIndex(of: " ") else {
            throw ServeFailure(description: "capture serve printed no URL: \(text.debugDescription)")
        }
        base = String(text[start.lowerBound..<end])
        port = UInt16(base.split(separator: ":").last?.filter(\.isNumber) ?? "") ?? 0
    }

    struct ServeFailure: Error, CustomStringConvertible { let description: String }

    /// curl `arguments` against `path` (joined to the base URL); `-s` and `-S` always. A
    /// POST goes as the served page sends one, `Content-Type: application/json`, unless the
    /// arguments name a content type themselves.
    func curl(_ path: String, _ arguments: [String] = []) throws -> ToolRunner.Output {
        let posts = arguments.contains { ["-d", "--data", "--data-binary", "POST"].contains($0) }
        let typed = arguments.contains { $0.lowercased().hasPrefix("content-type:") }
        let json = posts && !typed ? ["-H", "Content-Type: application/json"] : []
        return try ToolRunner.run("curl", ["-sS"] + json + arguments + [base + path.dropFirst()], path: "/usr/bin/curl")
    }

    /// The HTTP status and body of a request, via curl's `-w` after the body.
    func request(_ path: String, _ arguments: [String] = []) throws -> (status: Int, body: Data) {
        let result = try curl(path, arguments + ["-w", "\n%{http_code}"])
        let data = result.stdoutData
        let split = data.lastIndex(of: 0x0A) ?? data.endIndex
        let status = Int(String(decoding: data[data.index(after: split)...], as: UTF8.self)) ?? 0
        return (status, Data(data[data.startIndex..<split]))
    }

    func json(_ path: String, _ arguments: [String] = []) throws -> (status: Int, object: [String: Any]) {
        let (status, body) = try request(path, arguments)
        return (status, (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:])
    }

    /// Ctrl-C, as a user stops it; returns the exit status (-1 when it had to be killed,
    /// which fails the test).
    func stop(sourceLocation: SourceLocation = #_sourceLocation) -> Int32 {
        process.signal(SIGINT)
        return (try? process.wait(sourceLocation: sourceLocation))?.status ?? -1
    }
}
