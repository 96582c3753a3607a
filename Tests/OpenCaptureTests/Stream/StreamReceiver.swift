import Foundation
import TestSupport

/// A free loopback port: bound to port 0 and released, so the kernel picked one nobody
/// uses (TCP for RTSP and RTMP, UDP for SRT).
func freeLoopbackPort(udp: Bool = false) -> UInt16 {
    let descriptor = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
}

/// An ffmpeg or ffprobe receiving a stream, under `timeout` so it never outlives its test
/// process (even one that crashed), and killed when it goes away. Its standard output is
/// collected by `ChildProcess`.
final class StreamReceiver: @unchecked Sendable {
    private let child: ChildProcess

    /// Starts `tool` (ffmpeg or ffprobe) with `arguments`, killed after `seconds` at most.
    init(_ tool: String, _ arguments: [String], seconds: Int = 10) throws {
        // ffprobe never reads standard input and has no -nostdin; ffmpeg would read keys from it.
        child = try ChildProcess(
            "/usr/bin/timeout", ["-s", "KILL", String(seconds), "/usr/bin/\(tool)", "-hide_banner"] + (tool == "ffmpeg" ? ["-nostdin"] : []) + arguments,
            stderr: .discard)
    }

    /// Kills the receiver at once (timeout and the tool: they share a process group).
    func kill() { child.kill() }

    /// Stops (SIGSTOP) or continues (SIGCONT) the tool: a stopped receiver reads nothing, so
    /// the sender's socket fills as on a congested network.
    func signalTool(_ signal: Int32) { child.signal(signal) }

    /// Waits for the receiver to end by itself (at most `seconds`); its standard output.
    func waitForOutput(seconds: Double = 10) -> Data? {
        child.waitForExit(within: .seconds(seconds))?.stdoutData
    }
}

/// ffprobe's view of a live stream's video: codec, size, frame rate.
struct LiveProbe {
    var codec: String
    var width: Int
    var height: Int
    var frameRate: Double
    var firstPacketIsKey: Bool
    var audioCodec: String?

    /// Listens (or calls) with ffprobe on `url` (with `options` before it) and reads the
    /// stream's parameters and first packets.
    static func receiver(_ url: String, options: [String], seconds: Int = 10) throws -> StreamReceiver {
        // Half a second of analysis: enough for the frame rate, where the default 5 s would
        // make every live probe wait that long.
        try StreamReceiver("ffprobe", ["-v", "error", "-analyzeduration", "500000"] + options + [
            "-read_intervals", "%+#5", "-show_entries", "stream=codec_type,codec_name,width,height,r_frame_rate:packet=flags,codec_type",
            "-show_packets", "-of", "json", url,
        ], seconds: seconds)
    }

    init?(_ data: Data) {
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let streams = json["streams"] as? [[String: Any]],
            let video = streams.first(where: { $0["codec_type"] as? String == "video" })
        else { return nil }
        codec = video["codec_name"] as? String ?? ""
        width = video["width"] as? Int ?? 0
        height = video["height"] as? Int ?? 0
        let rate = (video["r_frame_rate"] as? String ?? "0/1").split(separator: "/").compactMap { Double($0) }
        frameRate = rate.count == 2 && rate[1] > 0 ? rate[0] / rate[1] : 0
        let packets = (json["packets"] as? [[String: Any]] ?? []).filter { $0["codec_type"] as? String == "video" }
        firstPacketIsKey = (packets.first?["flags"] as? String)?.hasPrefix("K") ?? false
        audioCodec = streams.first(where: { $0["codec_type"] as? String == "audio" })?["codec_name"] as? String
    }
}
