import CMicroHTTPD
import Foundation

/// An HTTP server on libmicrohttpd: one thread per connection, so a route may block (a
/// stream waiting for the next frame) without holding up any other client.
///
/// `handler` runs on the connection's thread once the whole request is in (bodies over
/// `bodyLimit` are cut and flagged). Before it, the daemon itself answers a request target
/// over `uriLimit` bytes (414) or holding an escaped NUL (400: libmicrohttpd's decoded
/// path and query values are C strings, so `/status%00.jpg` would reach a route as
/// `/status`). Connections beyond `connectionLimit`, or beyond `addressLimit` from one
/// client address (0: none), are refused by the library; headers beyond its per-connection
/// memory get 431 from it. `ConnectionGuard` closes connections that do not deliver a
/// request within `requestTimeout` seconds, and the longest-waiting of them when
/// connections run short.
final class HTTPDaemon: @unchecked Sendable {
    typealias Handler = @Sendable (WebRequest) -> WebResponse

    /// The port listened on (the one picked, when 0 was asked for).
    private(set) var port: UInt16 = 0
    fileprivate let handler: Handler
    fileprivate let bodyLimit: Int
    fileprivate let uriLimit: Int
    fileprivate let connections: ConnectionGuard
    private var daemon: OpaquePointer?

    enum StartError: Error, CustomStringConvertible {
        case cannotListen(host: String, port: UInt16)
        var description: String {
            switch self {
            case .cannotListen(let host, let port): "cannot listen on \(host):\(port) (in use, or not an address of this machine)"
            }
        }
    }

    /// Listens on `host` (an IPv4 address) and `port` (0: any free port, see `port`).
    init(
        host: String, port: UInt16, connectionLimit: Int, addressLimit: Int, requestTimeout: Double, bodyLimit: Int, uriLimit: Int,
        handler: @escaping Handler
    ) throws {
        self.handler = handler
        self.bodyLimit = bodyLimit
        self.uriLimit = uriLimit
        connections = ConnectionGuard(connectionLimit: connectionLimit, requestTimeout: requestTimeout)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw StartError.cannotListen(host: host, port: port) }
        // The daemon holds an unretained pointer to self; `stop()` (or deinit) ends it first.
        let me = Unmanaged.passUnretained(self).toOpaque()
        let started = oc_mhd_start(
            &address, webAccessHandler, me, webRequestCompleted, webConnectionNotice, webRequestLine, UInt32(clamping: connectionLimit),
            UInt32(clamping: addressLimit),
            // The request head and body of one connection: room for a request target at the
            // URI limit with far more headers than any browser sends, and for the answer's.
            Self.connectionMemory(uriLimit: uriLimit), 60)
        guard let started else {
            connections.stop()
            throw StartError.cannotListen(host: host, port: port)
        }
        daemon = started
        self.port = oc_mhd_port(started)
    }

    static func connectionMemory(uriLimit: Int) -> Int { 4 * uriLimit + 32 * 1024 }

    /// The socket send buffer of a streamed response (MJPEG, server-sent events).
    static let streamSendBuffer = 64 * 1024

    /// Stops listening and ends every connection (blocking streams are woken by the routes'
    /// `cancel`, which the completion callback calls).
    func stop() {
        connections.stop()
        guard let daemon else { return }
        self.daemon = nil
        MHD_stop_daemon(daemon)
    }

    deinit { stop() }
}

/// What one request has gathered between the library's calls: its target as sent, then its
/// body, in pieces.
private final class PendingRequest {
    /// The request target as the client sent it (path and query, still escaped), and its
    /// length in bytes.
    let target: String
    let targetLength: Int
    var method = "GET"
    var url = "/"
    /// The library has called the handler once: the head is in.
    var headed = false
    var body = Data()
    var tooLarge = false
    /// The stream that answers it, cancelled when the connection ends.
    var stream: WebStream?

    init(target: String, length: Int) {
        self.target = target
        targetLength = length
    }
}

/// Header or query values of `connection` by lower-cased name (the last of a repeated
/// name), and the names given more than once.
private func values(of connection: OpaquePointer?, kind: MHD_ValueKind) -> (values: [String: String], repeated: Set<String>) {
    final class Box {
        var values: [String: String] = [:]
        var repeated: Set<String> = []
    }
    let box = Box()
    let pointer = Unmanaged.passUnretained(box).toOpaque()
    _ = MHD_get_connection_values(
        connection, kind,
        { context, _, key, value in
            let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
            if let key {
                let name = String(cString: key).lowercased()
                if box.values[name] != nil { box.repeated.insert(name) }
                box.values[name] = value.map { String(cString: $0) } ?? ""
            }
            return .YES
        }, pointer)
    return (box.values, box.repeated)
}

/// The request line is in: its raw target opens the request's record (the context the
/// library passes to every later call for this request).
private let webRequestLine: oc_mhd_uri_logger = { _, uri, _ in
    let pending = PendingRequest(target: uri.map { String(cString: $0) } ?? "/", length: uri.map { strlen($0) } ?? 1)
    return Unmanaged.passRetained(pending).toOpaque()
}

private let webAccessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, uploadData, uploadSize, requestContext in
    let daemon = Unmanaged<HTTPDaemon>.fromOpaque(context!).takeUnretainedValue()
    guard let requestContext, let uploadSize, let connection else { return .NO }
    let pending: PendingRequest
    if let state = requestContext.pointee {
        pending = Unmanaged<PendingRequest>.fromOpaque(state).takeUnretainedValue()
    } else {
        // No request line was logged (not expected): the decoded URL stands for the target.
        pending = PendingRequest(target: url.map { String(cString: $0) } ?? "/", length: url.map { strlen($0) } ?? 1)
        requestContext.pointee = Unmanaged.passRetained(pending).toOpaque()
    }
    guard pending.headed else {
        // First call: the head is in; the body (if any) comes in the next calls.
        pending.headed = true
        pending.method = method.map { String(cString: $0) } ?? "GET"
        pending.url = url.map { String(cString: $0) } ?? "/"
        return .YES
    }
    if uploadSize.pointee > 0 {
        if let uploadData, !pending.tooLarge {
            let room = daemon.bodyLimit - pending.body.count
            let count = min(room, uploadSize.pointee)
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { pending.body.append($0, count: count) }
            if uploadSize.pointee > room { pending.tooLarge = true }
        }
        uploadSize.pointee = 0
        return .YES
    }
    daemon.connections.requestArrived(on: connection)
    let answer: WebResponse
    if pending.targetLength > daemon.uriLimit {
        answer = .refusal(414, "the request target is over \(daemon.uriLimit) bytes")
    } else if pending.target.range(of: "%00") != nil {
        answer = .refusal(400, "the request target holds an escaped NUL (%00)")
    } else {
        let headers = values(of: connection, kind: .HEADER_KIND)
        answer = daemon.handler(WebRequest(
            method: pending.method, path: pending.url, query: values(of: connection, kind: .GET_ARGUMENT_KIND).values,
            headers: headers.values, repeatedHeaders: headers.repeated, body: pending.body, bodyTooLarge: pending.tooLarge))
    }
    let response: OpaquePointer?
    switch answer.body {
    case .data(let data):
        response = data.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .stream(let stream):
        pending.stream = stream
        // Newest frame wins only if the kernel does not queue seconds of frames for a slow
        // client: loopback and LAN sockets autotune their send buffers up to 4 MB (a hundred
        // small frames). Fixed at 64 KB (the kernel doubles it): about a 720p frame.
        var size = Int32(HTTPDaemon.streamSendBuffer)
        _ = setsockopt(oc_mhd_connection_socket(connection), SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let box = Unmanaged.passRetained(StreamReader(stream)).toOpaque()
        response = oc_mhd_stream_response(streamRead, box, streamRelease)
    }
    guard let response else { return .NO }
    defer { MHD_destroy_response(response) }
    for (name, value) in answer.headers + WebResponse.everyResponseHeaders { _ = MHD_add_response_header(response, name, value) }
    return MHD_queue_response(connection, UInt32(answer.status), response)
}

private let webRequestCompleted: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
    if let context, let connection {
        Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue().connections.requestEnded(on: connection)
    }
    guard let requestContext, let state = requestContext.pointee else { return }
    let pending = Unmanaged<PendingRequest>.fromOpaque(state).takeRetainedValue()
    pending.stream?.cancel()
    requestContext.pointee = nil
}

/// A connection was accepted or is being closed (on the library's listening thread).
private let webConnectionNotice: MHD_NotifyConnectionCallback = { context, connection, _, code in
    guard let context, let connection else { return }
    let guardian = Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue().connections
    if code == .CONNECTION_NOTIFY_STARTED {
        guardian.opened(connection, socket: oc_mhd_connection_socket(connection))
    } else {
        guardian.closed(connection)
    }
}

/// Hands a stream's pieces to the library, which asks for at most `max` bytes at a time.
private final class StreamReader {
    let stream: WebStream
    var piece = Data()
    var offset = 0

    init(_ stream: WebStream) { self.stream = stream }
}

private let streamRead: MHD_ContentReaderCallback = { context, _, buffer, max in
    let reader = Unmanaged<StreamReader>.fromOpaque(context!).takeUnretainedValue()
    if reader.offset >= reader.piece.count {
        guard let next = reader.stream.next() else { return oc_mhd_end_of_stream() }
        reader.piece = next
        reader.offset = 0
    }
    let count = min(max, reader.piece.count - reader.offset)
    reader.piece.withUnsafeBytes { bytes in
        buffer!.update(from: bytes.baseAddress!.advanced(by: reader.offset).assumingMemoryBound(to: CChar.self), count: count)
    }
    reader.offset += count
    return count
}

private let streamRelease: MHD_ContentReaderFreeCallback = { context in
    let reader = Unmanaged<StreamReader>.fromOpaque(context!).takeRetainedValue()
    reader.stream.cancel()
}
