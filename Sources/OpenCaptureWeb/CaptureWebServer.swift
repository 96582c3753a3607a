import Foundation
import OpenCapture

/// A live view and remote control of a capture session in a browser (a Linux addition).
///
/// It adds its own `AVCaptureVideoDataOutput` to `session` and serves over HTTP:
/// - `/`: a page with the live picture and a control panel;
/// - `/stream.mjpg`: the live picture as MJPEG (`multipart/x-mixed-replace`); each client
///   gets the newest frame when it is ready for one, so a slow client skips frames and
///   never delays capture or the other clients;
/// - `/snapshot.jpg`: the next frame as a JPEG;
/// - `/status`: the camera's state as JSON (see `CameraStatus`); `/events`: the same as
///   server-sent events, twice a second;
/// - `POST /control`: a JSON object of settings applied through AVFoundation's calls (see
///   `CameraControls`); any unknown name or bad value gets 400 with `{"error": reason}`
///   and changes nothing.
///
/// Security: it listens on loopback unless told otherwise, and any other address needs a
/// token, which every request must then carry (`Authorization: Bearer T` or `?token=T`);
/// request bodies, headers and the number of connections are bounded.
///
/// Routes run on the library's connection threads; none calls app code.
public final class CaptureWebServer: @unchecked Sendable {
    /// Where and how to listen.
    public struct Configuration: Sendable {
        /// An IPv4 address of this machine; default loopback.
        public var host: String
        /// 0 picks a free port; the one chosen is in `port` after `start()`.
        public var port: UInt16
        /// Required for any address but loopback.
        public var token: String?
        /// Simultaneous connections, streams included.
        public var connectionLimit: Int
        /// JPEG quality of the stream and snapshots (1-100).
        public var jpegQuality: Int

        public init(host: String = "127.0.0.1", port: UInt16 = 8080, token: String? = nil, connectionLimit: Int = 64, jpegQuality: Int = 80) {
            self.host = host
            self.port = port
            self.token = token
            self.connectionLimit = connectionLimit
            self.jpegQuality = jpegQuality
        }
    }

    /// Why the server cannot start.
    public enum ServerError: Error, CustomStringConvertible, Equatable {
        /// A non-loopback address without a token.
        case tokenRequired(host: String)
        /// The session has no camera input, or cannot take another video data output.
        case noCamera
        case cannotListen(String)

        public var description: String {
            switch self {
            case .tokenRequired(let host): "listening on \(host) needs a token: only loopback is served without one"
            case .noCamera: "the session has no camera input, or cannot add the server's video data output"
            case .cannotListen(let reason): reason
            }
        }
    }

    public let session: AVCaptureSession
    public let configuration: Configuration
    private let frames: LiveFrames
    private let output = AVCaptureVideoDataOutput()
    private let captureQueue = DispatchQueue(label: "OpenCaptureWeb.frames")
    private let token: AccessToken?
    private var daemon: HTTPDaemon?
    /// Checks twice a second whether the camera is gone, to show "no signal" meanwhile.
    private var watchdog: DispatchSourceTimer?
    private var noSignal: (size: CGSize, jpeg: Data)?
    /// Bodies of `POST /control` are small JSON objects.
    static let bodyLimit = 16 * 1024

    /// A server for `session`; nothing listens until `start()`.
    public init(session: AVCaptureSession, configuration: Configuration = Configuration()) throws(ServerError) {
        let loopback = configuration.host == "127.0.0.1" || configuration.host.hasPrefix("127.")
        token = configuration.token.flatMap(AccessToken.init)
        if !loopback && token == nil { throw .tokenRequired(host: configuration.host) }
        self.session = session
        self.configuration = configuration
        frames = LiveFrames(quality: min(max(configuration.jpegQuality, 1), 100))
        output.alwaysDiscardsLateVideoFrames = true
        output.setSampleBufferDelegate(frames, queue: captureQueue)
        session.beginConfiguration()
        let added = session.canAddOutput(output)
        if added { session.addOutput(output) }
        session.commitConfiguration()
        guard added, camera != nil else {
            if added { session.removeOutput(output) }
            throw .noCamera
        }
    }

    /// The port listened on, once started.
    public var port: UInt16 { daemon?.port ?? 0 }

    /// `http://host:port/`, once started.
    public var url: URL? { daemon.map { URL(string: "http://\(configuration.host):\($0.port)/")! } }

    /// Starts listening (the session is started and stopped by the app, as with any output).
    public func start() throws(ServerError) {
        guard daemon == nil else { return }
        do {
            daemon = try HTTPDaemon(
                host: configuration.host, port: configuration.port, connectionLimit: configuration.connectionLimit,
                bodyLimit: Self.bodyLimit
            ) { [weak self] request in
                self?.route(request) ?? .failure(503, "the server is stopping")
            }
        } catch {
            throw .cannotListen("\(error)")
        }
        let timer = DispatchSource.makeTimerSource(queue: captureQueue)
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
        timer.setEventHandler { [weak self] in self?.checkSignal() }
        timer.activate()
        watchdog = timer
    }

    /// While the camera is disconnected, the stream shows the "no signal" picture (on the
    /// capture queue, so it never interleaves with a frame being recorded).
    private func checkSignal() {
        guard let camera, !camera.isConnected else { return }
        var size = frames.lastFrameSize
        if size.width == 0 { size = CGSize(width: 640, height: 480) }
        if noSignal?.size != size, let jpeg = NoSignalPicture.jpeg(width: Int(size.width), height: Int(size.height)) {
            noSignal = (size, jpeg)
        }
        if let noSignal { frames.publish(noSignal.jpeg) }
    }

    /// Stops listening, ends every stream and takes the output out of the session.
    public func stop() {
        watchdog?.cancel()
        watchdog = nil
        frames.stop()
        daemon?.stop()
        daemon = nil
        session.removeOutput(output)
    }

    /// A point in 0...1 of the served picture in device coordinates, through the output's
    /// own conversion (which knows its connection's rotation and mirroring).
    private func devicePoint(_ point: CGPoint) -> CGPoint {
        let size = frames.lastFrameSize
        let rect = CGRect(x: point.x * size.width, y: point.y * size.height, width: 0, height: 0)
        return output.metadataOutputRectConverted(fromOutputRect: rect).origin
    }

    private var camera: AVCaptureDevice? {
        output.connection(with: .video)?.inputPorts.first.flatMap { ($0.input as? AVCaptureDeviceInput)?.device }
    }

    // MARK: routes (on connection threads)

    private func route(_ request: WebRequest) -> WebResponse {
        if let token, !token.admits(request) {
            var refusal = WebResponse.failure(401, "this server needs its token: Authorization: Bearer TOKEN, or ?token=TOKEN")
            refusal.headers.append(("WWW-Authenticate", "Bearer"))
            return refusal
        }
        if request.bodyTooLarge { return .failure(413, "the body is over \(Self.bodyLimit) bytes") }
        switch (request.method, request.path) {
        case ("GET", "/"), ("HEAD", "/"):
            return WebResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: .data(Data(WebPage.html.utf8)))
        case ("GET", "/stream.mjpg"):
            return WebResponse(
                status: 200,
                headers: [("Content-Type", "multipart/x-mixed-replace; boundary=\(MJPEGStream.boundary)"), ("Cache-Control", "no-store")],
                body: .stream(MJPEGStream(frames: frames)))
        case ("GET", "/snapshot.jpg"):
            guard let frame = frames.frame(after: frames.counts.delivered, timeout: 5) else {
                return .failure(503, "no frame from the camera within 5 s")
            }
            return .bytes(frame.jpeg, type: "image/jpeg")
        case ("GET", "/status"):
            guard let camera else { return .failure(503, "the session has no camera") }
            return .json(CameraStatus.json(device: camera, frames: frames))
        case ("GET", "/events"):
            return WebResponse(
                status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")],
                body: .stream(StatusEvents { [weak self] in self.flatMap { server in server.camera.map { CameraStatus.json(device: $0, frames: server.frames) } } }))
        case ("POST", "/control"):
            guard let camera else { return .failure(503, "the session has no camera") }
            do {
                try CameraControls.apply(request.body, to: camera, devicePoint: devicePoint)
            } catch {
                return .failure(400, error.reason)
            }
            return .json(CameraStatus.json(device: camera, frames: frames))
        case (_, "/"), (_, "/stream.mjpg"), (_, "/snapshot.jpg"), (_, "/status"), (_, "/events"), (_, "/control"):
            return .failure(405, "\(request.method) is not allowed on \(request.path)")
        default:
            return .failure(404, "no such path: \(request.path); paths: /, /stream.mjpg, /snapshot.jpg, /status, /events, /control")
        }
    }
}
