import CMicroHTTPD
import Foundation

/// An HTTP server on libmicrohttpd: one thread per connection, so a route may block (a
/// stream waiting for the next frame) without holding up any other client.
///
/// `handler` runs on the connection's thread once the whole request is in (bodies over
/// `bodyLimit` are cut and flagged). Connections beyond `connectionLimit` are refused by
/// the library; headers beyond its per-connection memory get 431 from it.
final class HTTPDaemon: @unchecked Sendable {
    typealias Handler = @Sendable (WebRequest) -> WebResponse

    /// The port listened on (the one picked, when 0 was asked for).
    private(set) var port: UInt16 = 0
    fileprivate let handler: Handler
    fileprivate let bodyLimit: Int
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
    init(host: String, port: UInt16, connectionLimit: Int, bodyLimit: Int, handler: @escaping Handler) throws {
        self.handler = handler
        self.bodyLimit = bodyLimit
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw StartError.cannotListen(host: host, port: port) }
        // The daemon holds an unretained pointer to self; `stop()` (or deinit) ends it first.
        let me = Unmanaged.passUnretained(self).toOpaque()
        let started = oc_mhd_start(
            &address, webAccessHandler, me, webRequestCompleted, UInt32(connectionLimit),
            // Headers and body of one connection: 32 KB is far above any browser's headers.
            32 * 1024, 60)
        guard let started else { throw StartError.cannotListen(host: host, port: port) }
        daemon = started
        self.port = oc_mhd_port(started)
    }

    /// Stops listening and ends every connection (blocking streams are woken by the routes'
    /// `cancel`, which the completion callback calls).
    func stop() {
        guard let daemon else { return }
        self.daemon = nil
        MHD_stop_daemon(daemon)
    }

    deinit { stop() }
}

/// What one request has gathered between the library's calls: its body, in pieces.
private final class PendingRequest {
    let method: String
    let url: String
    var body = Data()
    var tooLarge = false
    /// The stream that answers it, cancelled when the connection ends.
    var stream: WebStream?

    init(method: String, url: String) {
        self.method = method
        self.url = url
    }
}

/// Header and query values of `connection`.
private func values(of connection: OpaquePointer?, kind: MHD_ValueKind) -> [String: String] {
    final class Box { var values: [String: String] = [:] }
    let box = Box()
    let pointer = Unmanaged.passUnretained(box).toOpaque()
    _ = MHD_get_connection_values(
        connection, kind,
        { context, _, key, value in
            let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
            if let key { box.values[String(cString: key).lowercased()] = value.map { String(cString: $0) } ?? "" }
            return .YES
        }, pointer)
    return box.values
}

private let webAccessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, uploadData, uploadSize, requestContext in
    let daemon = Unmanaged<HTTPDaemon>.fromOpaque(context!).takeUnretainedValue()
    guard let requestContext, let uploadSize else { return .NO }
    guard let state = requestContext.pointee else {
        // First call: the headers are in; the body (if any) comes in the next calls.
        let pending = PendingRequest(method: method.map { String(cString: $0) } ?? "GET", url: url.map { String(cString: $0) } ?? "/")
        requestContext.pointee = Unmanaged.passRetained(pending).toOpaque()
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(state).takeUnretainedValue()
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
    let query = values(of: connection, kind: .GET_ARGUMENT_KIND)
    let request = WebRequest(
        method: pending.method, path: pending.url, query: query, headers: values(of: connection, kind: .HEADER_KIND),
        body: pending.body, bodyTooLarge: pending.tooLarge)
    let answer = daemon.handler(request)
    let response: OpaquePointer?
    switch answer.body {
    case .data(let data):
        response = data.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .stream(let stream):
        pending.stream = stream
        let box = Unmanaged.passRetained(StreamReader(stream)).toOpaque()
        response = oc_mhd_stream_response(streamRead, box, streamRelease)
    }
    guard let response else { return .NO }
    defer { MHD_destroy_response(response) }
    for (name, value) in answer.headers { _ = MHD_add_response_header(response, name, value) }
    return MHD_queue_response(connection, UInt32(answer.status), response)
}

private let webRequestCompleted: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let state = requestContext.pointee else { return }
    let pending = Unmanaged<PendingRequest>.fromOpaque(state).takeRetainedValue()
    pending.stream?.cancel()
    requestContext.pointee = nil
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
