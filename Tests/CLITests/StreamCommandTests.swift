import Foundation
import Testing
import TestSupport

/// A free loopback TCP port (bound to 0 and released).
private func freeTCPPort() -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
    return UInt16(bigEndian: address.sin_port)
}

/// A loopback TCP listener that never answers: the kernel completes each connection (the
/// backlog) and nobody reads or writes. Closed when the value goes.
private final class SilentListener {
    let port: UInt16
    private let descriptor: Int32

    init() {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, length) } }
        _ = listen(listening, 16)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) } }
        descriptor = listening
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Connections the kernel accepted and nobody took yet (Linux's tcp_info would say more;
    /// a connect from here proves the listener takes them).
    var accepts: Bool {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    deinit { close(descriptor) }
}

@Suite("capture stream: publishing to RTSP, SRT and RTMP", .serialized)
struct StreamCommandTests {
    /// `capture ARGUMENTS`, killed after `seconds`, so a stream that never ends fails the test.
    static func capture(_ arguments: [String], seconds: Int = 20) throws -> ToolRunner.Output {
        try ToolRunner.run("capture", arguments, within: .seconds(seconds))
    }

    @Test(
        "a bad URL, another scheme or WHIP: one line, status 2",
        arguments: [
            ("whip://127.0.0.1:8080/whip", "whip muxer"), ("ftp://127.0.0.1/x", "unsupported stream scheme"),
            ("srt://127.0.0.1", "needs a port"), ("not a url", "not a URL"),
        ])
    func refusesBadURLs(url: String, words: String) throws {
        let result = try Self.capture(["stream", url, "--preset", "cif352x288", "--duration", "1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(words), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test("nobody at the address at the start: one line, status 2")
    func unreachableAtStart() throws {
        let result = try Self.capture(["stream", "rtsp://127.0.0.1:\(freeTCPPort())/live", "--preset", "cif352x288", "--duration", "5"])
        #expect(result.status == 2)
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("capture: cannot stream to rtsp://127.0.0.1:") && last.contains("refused"), "\(result.stderr)")
    }

    @Test("a second of RTSP to ffprobe listening: H.264 352x288 at 30 frames/s")
    func streamsToRTSPListener() throws {
        let port = freeTCPPort()
        let url = "rtsp://127.0.0.1:\(port)/live"
        let probe = try ChildProcess(
            FFprobe.path,
            ["-v", "error", "-rtsp_flags", "listen", "-read_intervals", "%+#3", "-show_entries", "stream=codec_name,width,height,r_frame_rate",
                "-of", "csv=p=0", url],
            stderr: .discard)
        // Sent only once ffprobe listens: on a busy machine it may take longer than the
        // publisher's retries within the stream's 1.5 s.
        #expect(waitForListener(onPort: port), "ffprobe never listened on \(port)")
        let result = try Self.capture(["stream", url, "--preset", "cif352x288", "--duration", "1.5", "--bitrate", "400000", "--time-code"])
        let seen = try probe.wait(within: .seconds(10)).stdout
        #expect(result.status == 0, "\(result.stderr)")
        #expect(seen.contains("h264,352,288,30/1"), "\(seen)")
        #expect(result.stderr.contains("connected (first connection)"), "\(result.stderr)")
    }

    @Test("a server that accepts the connection and never answers: not streamed, status 2, one line saying so")
    func silentListener() throws {
        let listener = SilentListener()
        #expect(listener.accepts)
        let result = try Self.capture(["stream", "rtsp://127.0.0.1:\(listener.port)/live", "--preset", "cif352x288", "--duration", "1"])
        #expect(result.exited && result.status == 2, "\(result.stderr)")
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("capture: cannot stream to rtsp://127.0.0.1:\(listener.port)/live: no connection in "), "\(result.stderr)")
        #expect(!result.stderr.contains("streamed 0 frames"), "\(result.stderr)")
    }

    @Test(
        "a URL's password, key-only user, RTMP stream key and SRT passphrase are never printed: user:***@, ***@, app/*** and passphrase=***",
        arguments: [
            ("rtsp://viewer:hunter2hunter2@127.0.0.1:PORT/live", "rtsp://viewer:***@127.0.0.1:PORT/live"),
            ("rtsp://hunter2hunter2@127.0.0.1:PORT/live", "rtsp://***@127.0.0.1:PORT/live"),
            ("rtmp://127.0.0.1:PORT/live/hunter2hunter2", "rtmp://127.0.0.1:PORT/live/***"),
            ("srt://127.0.0.1:PORT?latency=20000&passphrase=hunter2hunter2", "srt://127.0.0.1:PORT?latency=20000&passphrase=***"),
        ])
    func secretsRedacted(url: String, shown: String) throws {
        let port = String(freeTCPPort())
        let result = try Self.capture(
            ["stream", url.replacingOccurrences(of: "PORT", with: port), "--preset", "cif352x288", "--duration", "1"])
        #expect(result.status == 2)
        #expect(!result.stderr.contains("hunter2"), "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasSuffix("to \(shown.replacingOccurrences(of: "PORT", with: port)); Ctrl-C stops") == true, "\(result.stderr)")
        #expect(lines.last?.hasPrefix("capture: cannot stream to \(shown.replacingOccurrences(of: "PORT", with: port)): ") == true, "\(result.stderr)")
    }

    @Test("CR, LF and other control characters in a URL are escaped in every message")
    func controlCharactersEscaped() throws {
        let port = freeTCPPort()
        let result = try Self.capture(["stream", "rtsp://127.0.0.1:\(port)/li\r\nve\u{1b}", "--preset", "cif352x288", "--duration", "1"])
        #expect(result.status == 2)
        // By scalars: "\r\n" is one Character, which a search for "\r" would not find.
        #expect(!result.stderr.unicodeScalars.contains { $0 == "\r" || $0 == "\u{1b}" }, "\(result.stderr.debugDescription)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains("/li\\r\\nve\\u{1b}") }, "\(result.stderr.debugDescription)")
    }

    @Test("an SRT peer that refuses (another passphrase) is reported as such, with FFmpeg's text and no secret")
    func srtRefusal() throws {
        // ffmpeg as the SRT listener, with a passphrase of its own (UDP; the port is picked
        // free for TCP, which on loopback leaves UDP's free as well in practice).
        let port = freeTCPPort()
        // Killed when the test ends (ChildProcess's deinit).
        let listener = try ChildProcess(
            "/usr/bin/ffmpeg", ["-v", "quiet", "-i", "srt://127.0.0.1:\(port)?mode=listener&passphrase=listenersecret", "-f", "null", "-"],
            stdout: .discard, stderr: .discard)
        defer { listener.kill() }
        // The listener's socket is up once ss lists it (a refusal needs someone to refuse).
        eventually("ffmpeg listens on UDP \(port)", checkingEvery: .milliseconds(20)) {
            (try? ToolRunner.run("ss", ["-Hlun", "sport = :\(port)"], path: "/usr/bin/ss").stdout.contains(":\(port)")) ?? false
        }
        let result = try Self.capture(["stream", "srt://127.0.0.1:\(port)?passphrase=callersecret1", "--preset", "cif352x288", "--duration", "8"])
        #expect(result.status == 2)
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            last == "capture: cannot stream to srt://127.0.0.1:\(port)?passphrase=***: the peer refused the SRT connection (FFmpeg: Input/output error)",
            "\(result.stderr)")
    }
}
