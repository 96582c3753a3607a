import Foundation
import OpenCapture
import OpenCaptureWeb
import TestSupport

/// A `CaptureWebServer` on a running session of the default camera at 352x288, listening on
/// a free loopback port, for tests that talk to it over raw sockets.
final class ServedSession {
    let camera: AVCaptureDevice
    let session = AVCaptureSession()
    let server: CaptureWebServer

    /// `configure` adjusts the configuration (port 0 already set) before the server starts.
    init(_ configure: (inout CaptureWebServer.Configuration) -> Void = { _ in }) throws {
        camera = AVCaptureDevice.default(for: .video)!
        session.sessionPreset = .cif352x288
        session.addInput(try AVCaptureDeviceInput(device: camera))
        var configuration = CaptureWebServer.Configuration(port: 0)
        configure(&configuration)
        server = try CaptureWebServer(session: session, configuration: configuration)
        try server.start()
        session.startRunning()
    }

    var port: UInt16 { server.port }

    /// `127.0.0.1:PORT`, the Host a client of the server's own URL sends.
    var host: String { "127.0.0.1:\(port)" }

    /// A request on a new connection (`Host` is the server's own unless `headers` name
    /// one, or `noHost`), its response or nil when none came.
    func send(
        _ method: String, _ path: String, headers: [String] = [], body: String = "", version: String = "HTTP/1.1", noHost: Bool = false
    ) throws -> RawHTTPConnection.Response? {
        let connection = try RawHTTPConnection(port: port)
        return connection.exchange(Self.request(method, path, host: noHost ? nil : host, headers: headers, body: body, version: version))
    }

    /// The text of a request; a `Content-Length` is added for a body.
    static func request(_ method: String, _ path: String, host: String?, headers: [String] = [], body: String = "", version: String = "HTTP/1.1") -> String {
        var lines = ["\(method) \(path) \(version)"]
        if let host, !headers.contains(where: { $0.lowercased().hasPrefix("host:") }) { lines.append("Host: \(host)") }
        lines += headers
        if !body.isEmpty { lines.append("Content-Length: \(body.utf8.count)") }
        return lines.joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    func stop() {
        server.stop()
        session.stopRunning()
    }
}
