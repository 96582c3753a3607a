import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a loopback server driven by hand, for what no HTTP client sends:
/// half requests, a byte now and then, forged `Host` and `Origin` headers, escaped NULs,
/// floods of connections that never finish. Reads wait with `poll`, bounded.
package final class RawHTTPConnection: @unchecked Sendable {
    /// What a read ended with.
    package enum End: Equatable, Sendable {
        /// The wanted bytes came (the connection may still be open).
        case complete
        /// The server closed the connection (end of stream).
        case closed
        /// The server reset it (it closed with unread input).
        case reset
        /// Nothing more came within the time allowed.
        case timedOut
    }

    /// An HTTP response as read off the socket.
    package struct Response: Sendable {
        package let status: Int
        package let headers: [String: String]
        package let body: Data
        /// The `error` of a JSON body, or "".
        package var reason: String {
            ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["error"] as? String ?? ""
        }
    }

    package let descriptor: Int32
    private var buffered = Data()

    /// Connects to 127.0.0.1:`port`, from `source` (another loopback address, such as
    /// 127.0.0.2, to be a second client address) and with a receive buffer of
    /// `receiveBuffer` bytes when given (a client that reads nothing fills it at once).
    package init(port: UInt16, from source: String? = nil, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        if var size = receiveBuffer {
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = Self.address(source, port: 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(descriptor)
                throw Failure(description: "bind \(source): errno \(errno)")
            }
        }
        var remote = Self.address("127.0.0.1", port: port)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(description: "connect to port \(port): errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Sends all of `data`; false when the server has closed or reset the connection.
    @discardableResult
    package func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    @discardableResult
    package func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// No more bytes from this side: the server reads the end of the request stream.
    package func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// Reads until `enough` says the bytes so far suffice, the server ends the connection,
    /// or `timeout` seconds pass without it; returns every byte read and how it ended.
    package func read(timeout: Double, until enough: (Data) -> Bool = { _ in false }) -> (data: Data, end: End) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while !enough(buffered) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (buffered, .timedOut) }
            var watch = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watch, 1, Int32(min(left, 1) * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return (buffered, errno == ECONNRESET ? .reset : .closed) }
            if count == 0 { return (buffered, .closed) }
            buffered.append(contentsOf: chunk[0..<count])
        }
        return (buffered, .complete)
    }

    /// Takes `count` bytes read so far off the front (what a parser consumed).
    package func consume(_ count: Int) { buffered.removeFirst(min(count, buffered.count)) }

    /// Whether the server has ended the connection, without waiting: a pending end of
    /// stream or reset (bytes not yet read do not count as an end).
    package var isClosedByServer: Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
    }

    /// A whole response with a `Content-Length` body (or one ended by the server closing),
    /// or nil with how the read ended when none came within `timeout`.
    package func response(timeout: Double = 30) -> (response: Response?, end: End) {
        let (data, end) = read(timeout: timeout) { Self.parse($0)?.complete == true }
        guard let parsed = Self.parse(data), parsed.complete || end == .closed else { return (nil, end) }
        consume(parsed.length)
        return (parsed.response, end)
    }

    /// Sends `request` and reads its response.
    package func exchange(_ request: String, timeout: Double = 30) -> Response? {
        guard send(request) else { return nil }
        return response(timeout: timeout).response
    }

    /// The status line's code, or nil when `data` does not start with a whole status line.
    package static func status(in data: Data) -> Int? {
        guard let end = data.firstRange(of: Data("\r\n".utf8)) else { return nil }
        let line = String(decoding: data[data.startIndex..<end.lowerBound], as: UTF8.self)
        let words = line.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[0] == "HTTP/1.1" || words[0] == "HTTP/1.0", words[1].count == 3, let code = Int(words[1]),
            (100...599).contains(code)
        else { return nil }
        return code
    }

    private static func parse(_ data: Data) -> (response: Response, complete: Bool, length: Int)? {
        guard let status = status(in: data), let headEnd = data.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
        var headers: [String: String] = [:]
        let head = String(decoding: data[data.startIndex..<headEnd.lowerBound], as: UTF8.self)
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let bodyStart = headEnd.upperBound
        let available = data.endIndex - bodyStart
        // 1xx answers have no body; without a length the body runs to the close.
        let length = status < 200 ? 0 : headers["content-length"].flatMap { Int($0) } ?? available
        let complete = status < 200 || headers["content-length"] != nil && available >= length
        let body = Data(data[bodyStart..<(bodyStart + min(length, available))])
        return (Response(status: status, headers: headers, body: body), complete, bodyStart - data.startIndex + min(length, available))
    }

    private static func address(_ text: String, port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        _ = inet_pton(AF_INET, text, &address.sin_addr)
        return address
    }
}

/// The parts of an MJPEG stream (`multipart/x-mixed-replace`, read over HTTP/1.0 so the body
/// is not chunked): each part's `X-Frame-Sequence` and JPEG.
package struct MJPEGPartReader {
    package struct Part: Sendable {
        package let sequence: Int
        package let jpeg: Data
    }

    package let connection: RawHTTPConnection
    private var headerSkipped = false

    /// Asks `port` for `/stream.mjpg` on a new connection (from `source`, with
    /// `receiveBuffer` bytes of receive buffer, when given).
    package init(port: UInt16, from source: String? = nil, receiveBuffer: Int32? = nil) throws {
        connection = try RawHTTPConnection(port: port, from: source, receiveBuffer: receiveBuffer)
        guard connection.send("GET /stream.mjpg HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n") else {
            throw RawHTTPConnection.Failure(description: "the stream request could not be sent")
        }
    }

    /// The next whole part, or nil when the stream ends or none comes within `timeout`.
    package mutating func next(timeout: Double = 30) -> Part? {
        if !headerSkipped {
            let (data, _) = connection.read(timeout: timeout) { $0.firstRange(of: Data("\r\n\r\n".utf8)) != nil }
            guard let end = data.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
            connection.consume(end.upperBound - data.startIndex)
            headerSkipped = true
        }
        var found: (part: Part, length: Int)?
        _ = connection.read(timeout: timeout) { data in
            found = Self.part(in: data)
            return found != nil
        }
        guard let found else { return nil }
        connection.consume(found.length)
        return found.part
    }

    /// A part at the front of `data`: delimiter line(s), headers with Content-Length and
    /// X-Frame-Sequence, a blank line, the JPEG; and the bytes it spans.
    private static func part(in data: Data) -> (part: Part, length: Int)? {
        guard let headEnd = data.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: data[data.startIndex..<headEnd.lowerBound], as: UTF8.self)
        var length: Int?
        var sequence: Int?
        for line in head.components(separatedBy: "\r\n") {
            let lower = line.lowercased()
            if lower.hasPrefix("content-length:") { length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
            if lower.hasPrefix("x-frame-sequence:") { sequence = Int(line.dropFirst("x-frame-sequence:".count).trimmingCharacters(in: .whitespaces)) }
        }
        guard let length, let sequence, data.endIndex - headEnd.upperBound >= length else { return nil }
        let jpeg = Data(data[headEnd.upperBound..<(headEnd.upperBound + length)])
        return (Part(sequence: sequence, jpeg: jpeg), headEnd.upperBound - data.startIndex + length)
    }
}
