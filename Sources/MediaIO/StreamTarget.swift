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
            throw .invalidSettings("'\(Self.display(text))' is not a URL")
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
            throw .invalidSettings("unsupported stream scheme '\(Self.display(scheme))://' (use rtsp://, srt:// or rtmp://)")
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
            default: throw .invalidSettings("unknown SRT mode '\(Self.display(mode))' (caller, listener or rendezvous)")
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

    /// The URL as messages show it: without secrets, on one line (see `display(_:)`).
    package var displayURL: String { Self.display(url) }

    /// Query parameters whose values are secrets: SRT's passphrase and the usual names.
    static let secretParameters: Set<String> = ["passphrase", "password", "pass", "pwd", "token", "secret", "key", "auth"]

    /// `text` (a URL, or what was given as one) fit to print: a password in it becomes
    /// `***` (`rtsp://user:***@host/path`), as does user information without one (often a
    /// key alone: `***@host`), an RTMP stream key (the path after the application name:
    /// `rtmp://host/app/***`) and the value of a secret query parameter
    /// (`?passphrase=***`), and control characters are escaped (`\r`, `\n`, `\t`,
    /// `\u{1b}`), so a message stays one line and a terminal is never sent commands.
    /// Works on text that is not a valid URL too: a mistyped URL may hold a password.
    package static func display(_ text: String) -> String {
        var shown = text
        // The authority runs from "//" to the first "/", "?" or "#"; its user information
        // ends at the last "@" in it, and a password follows the first ":" of that.
        if let slashes = shown.range(of: "//") {
            let rest = shown[slashes.upperBound...]
            let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            if let at = rest[..<end].lastIndex(of: "@") {
                if let colon = rest[..<at].firstIndex(of: ":") {
                    shown.replaceSubrange(shown.index(after: colon)..<at, with: "***")
                } else if at > slashes.upperBound {
                    shown.replaceSubrange(slashes.upperBound..<at, with: "***")
                }
            }
        }
        // RTMP's secret is the stream key: the path after the application's name (rtmp,
        // rtmps, rtmpt, rtmpe, rtmpte, rtmpts). Found afresh: the change above moved indices.
        if let slashes = shown.range(of: "//"), shown[..<slashes.lowerBound].lowercased().hasPrefix("rtmp") {
            let rest = shown[slashes.upperBound...]
            let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            if end < shown.endIndex, shown[end] == "/" {
                let path = shown[shown.index(after: end)...]
                let pathEnd = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
                if let slash = path[..<pathEnd].firstIndex(of: "/"), shown.index(after: slash) < pathEnd {
                    shown.replaceSubrange(shown.index(after: slash)..<pathEnd, with: "***")
                }
            }
        }
        if let question = shown.firstIndex(of: "?") {
            let end = shown[question...].firstIndex(of: "#") ?? shown.endIndex
            let items = shown[shown.index(after: question)..<end].split(separator: "&", omittingEmptySubsequences: false).map { item in
                guard let equals = item.firstIndex(of: "="), secretParameters.contains(item[..<equals].lowercased()) else { return String(item) }
                return item[...equals] + "***"
            }
            shown.replaceSubrange(shown.index(after: question)..<end, with: items.joined(separator: "&"))
        }
        return escapingControlCharacters(shown)
    }

    /// Control characters (C0, DEL, C1, the line and paragraph separators) as escapes.
    package static func escapingControlCharacters(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
