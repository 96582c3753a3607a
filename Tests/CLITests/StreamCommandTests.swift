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

@Suite("capture stream: publishing to RTSP, SRT and RTMP", .serialized)
struct StreamCommandTests {
    /// `capture ARGUMENTS` under timeout(1), so a stream that never ends fails the test.
    static func capture(_ arguments: [String], seconds: Int = 20) throws -> ToolRunner.Output {
        try ToolRunner.run(
            "timeout", ["-s", "KILL", String(seconds), ToolRunner.executable("capture").path] + arguments, path: "/usr/bin/timeout")
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
        let url = "rtsp://127.0.0.1:\(freeTCPPort())/live"
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        probe.arguments = ["-s", "KILL", "10", "/usr/bin/ffprobe", "-v", "error", "-rtsp_flags", "listen", "-read_intervals", "%+#3",
            "-show_entries", "stream=codec_name,width,height,r_frame_rate", "-of", "csv=p=0", url]
        let pipe = Pipe()
        probe.standardOutput = pipe
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        defer { if probe.isRunning { kill(probe.processIdentifier, SIGKILL) } }
        usleep(200_000)  // ffprobe binds its port (the publisher would retry anyway)
        let result = try Self.capture(["stream", url, "--preset", "cif352x288", "--duration", "1.5", "--bitrate", "400000", "--time-code"])
        let seen = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(seen.contains("h264,352,288,30/1"), "\(seen)")
        #expect(result.stderr.contains("connected (first connection)"), "\(result.stderr)")
    }
}
