import Foundation

/// Where a live stream goes: the URL checked and the libavformat muxer that carries it.
///
/// - `rtsp://host[:port]/path`: RTSP ANNOUNCE/RECORD push (what MediaMTX, GStreamer's RTSP
///   server and `ffmpeg -rtsp_flags listen` accept), RTP interleaved over the RTSP TCP
///   connection, so a receiver that goes away is noticed at the next write.
/// - `srt://host:port[?mode=caller|listener&latency=µs...]`: MPEG-TS over SRT (libsrt), as
///   caller (the default) or listener; FFmpeg's libsrt options pass through the query.
/// - `rtmp://host[:port]/app/stream`: FLV over RTMP (H.264 and AAC only: FFmpeg 5.1's FLV
///   has no HEVC).
///
/// WHIP (WebRTC ingest) is refused: Debian's FFmpeg 5.1 has no whip muxer (it arrived in
/// FFmpeg 7.1), and nothing else here speaks WebRTC.
package struct StreamTarget: Sendable, Equatable {
    package enum Kind: String, Sendable, Equatable {
        case rtsp, srt, rtmp
    }

    package let url: String
    package let kind: Kind
    /// SRT only: this end waits for a caller.
    package let listens: Bool

    /// libavformat's muxer for the kind.
    package var muxerName: String {
        switch kind {
        case .rtsp: "rtsp"
        case .srt: "mpegts"
        case .rtmp: "flv"
        }
    }

    /// Checks `text` as a stream URL: a supported scheme, a host, and for SRT a port and a
    /// known mode. Throws `.invalidSettings` with a one-line reason.
    package init(_ text: String) throws(MovieWriterError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .invalidSettings("'\(text)' is not a URL")
        }
        switch scheme {
        case "whip", "whips":
            throw .invalidSettings("WHIP is not available: this FFmpeg (5.1) has no whip muxer")
        case "http", "https":
            throw .invalidSettings("'\(scheme)://' is not a stream protocol here (WHIP needs FFmpeg 7.1's whip muxer, absent); use rtsp://, srt:// or rtmp://")
        default:
            break
        }
        guard let kind = Kind(rawValue: scheme) else {
            throw .invalidSettings("unsupported stream scheme '\(scheme)://' (use rtsp://, srt:// or rtmp://)")
        }
        let host = components.host ?? ""
        var listens = false
        switch kind {
        case .srt:
            guard components.port != nil else { throw .invalidSettings("an srt:// URL needs a port") }
            let mode = components.queryItems?.first { $0.name == "mode" }?.value ?? "caller"
            switch mode {
            case "caller": guard !host.isEmpty else { throw .invalidSettings("an SRT caller needs a host") }
            case "listener": listens = true
            case "rendezvous": guard !host.isEmpty else { throw .invalidSettings("SRT rendezvous needs a host") }
            default: throw .invalidSettings("unknown SRT mode '\(mode)' (caller, listener or rendezvous)")
            }
        case .rtsp, .rtmp:
            guard !host.isEmpty else { throw .invalidSettings("a \(scheme):// URL needs a host") }
            guard components.path.count > 1 else { throw .invalidSettings("a \(scheme):// URL needs a path (the stream's name)") }
        }
        if let port = components.port, !(1...65535).contains(port) { throw .invalidSettings("port \(port) is out of range") }
        url = text
        self.kind = kind
        self.listens = listens
    }
}
