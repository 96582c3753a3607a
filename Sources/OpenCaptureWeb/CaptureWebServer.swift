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
///   and changes nothing;
/// - `POST /controls`: a user's change of one of the session's own capture controls
///   (`AVCaptureSlider` and the rest, listed in `/status` under `controls`; see
///   `SessionControls`). The page is the session's Camera Control: its controls are active
///   while someone watches the stream, and their actions run as on iOS;
/// - with a save directory: `POST /photo` (a JPEG photo, answered with its download path
///   `{"file": "/files/photo-N.jpg"}`), `POST /record` with `{"action": "start"}` or
///   `{"action": "stop"}` (a QuickTime movie), and `GET /files/NAME` for files saved here.
///
/// Security (see `RequestPolicy` and `ConnectionGuard`): it listens on loopback unless told
/// otherwise, and any other address needs a token, which every request must then carry
/// (`Authorization: Bearer T` or `?token=T`). Every request must name the server in `Host`
/// (its address, `localhost` on loopback, `allowedHosts`), so a DNS rebinding page cannot
/// read it; a POST must be `Content-Type: application/json` and, with an `Origin`, come from
/// the server's own page, so no other site can change anything; a request another site's
/// page makes (`Sec-Fetch-Site`, `Origin`) is refused, and every response forbids framing
/// and embedding by other sites. Refusals are 4xx with `{"error": reason}` and close the
/// connection. Request targets (8 KB), bodies, headers, connections (in all and per client
/// address), streams (some connections always stay for other requests) and the time to
/// send a request are bounded, and a flood of connections that never finish a request
/// cannot lock a prompt client out.
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
        /// Simultaneous connections, streams included (2...`maximumConnections`); a quarter
        /// of them (at least two) is kept for requests that are not streams.
        public var connectionLimit: Int
        /// Simultaneous connections from one client address; nil: no such limit on loopback
        /// (every client there has the same address), half of `connectionLimit` elsewhere.
        public var connectionsPerAddress: Int?
        /// Seconds a connection has to send a whole request, from when it is accepted or its
        /// previous response ends, however steadily its bytes come (above 0, at most
        /// `maximumRequestTimeout`).
        public var requestTimeout: Double
        /// Further names clients reach this server by, accepted in `Host` (a DNS name that
        /// points here, a proxy's name), besides its address, `localhost`, 127.0.0.1 and
        /// [::1] on loopback, and the machine's host name and addresses on 0.0.0.0.
        public var allowedHosts: [String]
        /// JPEG quality of the stream and snapshots (1-100).
        public var jpegQuality: Int
        /// Where the page's photo and record buttons save (an existing, writable directory);
        /// nil: no buttons, and the server adds no photo or movie output.
        public var saveDirectory: URL?

        public init(
            host: String = "127.0.0.1", port: UInt16 = 8080, token: String? = nil, connectionLimit: Int = 64, jpegQuality: Int = 80,
            saveDirectory: URL? = nil, allowedHosts: [String] = [], connectionsPerAddress: Int? = nil, requestTimeout: Double = 10
        ) {
            self.host = host
            self.port = port
            self.token = token
            self.connectionLimit = connectionLimit
            self.allowedHosts = allowedHosts
            self.connectionsPerAddress = connectionsPerAddress
            self.requestTimeout = requestTimeout
            self.jpegQuality = jpegQuality
            self.saveDirectory = saveDirectory
        }

        /// The most connections a server takes: one thread each.
        public static let maximumConnections = 10_000
        /// The longest `requestTimeout`, in seconds (an hour).
        public static let maximumRequestTimeout: Double = 3_600

        /// Whether `name` can be one of `allowedHosts`: a DNS name (letters, digits, '-' and
        /// '.'), an IPv4 address, or an IPv6 address in brackets.
        public static func isHostName(_ name: String) -> Bool { RequestPolicy.isHostName(name) }
    }

    /// Why the server cannot start.
    public enum ServerError: Error, CustomStringConvertible, Equatable {
        /// A non-loopback address without a token.
        case tokenRequired(host: String)
        /// The session has no camera input, or cannot take another video data output.
        case noCamera
        /// The save directory does not exist or cannot be written.
        case unwritableSaveDirectory(String)
        /// An allowed host is not a host name or IP address, or a limit is out of range.
        case badConfiguration(String)
        case cannotListen(String)

        public var description: String {
            switch self {
            case .tokenRequired(let host): "listening on \(host) needs a token: only loopback is served without one"
            case .noCamera: "the session has no camera input, or cannot add the server's video data output"
            case .unwritableSaveDirectory(let path): "the save directory \(path) does not exist or cannot be written"
            case .badConfiguration(let reason): reason
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
    private let policy: RequestPolicy
    private let streams: StreamSlots
    /// The photo and record buttons' outputs and files, with a save directory.
    private let saved: SavedCaptures?
    private var daemon: HTTPDaemon?
    /// Checks twice a second whether the camera is gone, to show "no signal" meanwhile.
    private var watchdog: DispatchSourceTimer?
    private var noSignal: (size: CGSize, jpeg: Data)?
    /// Bodies of `POST /control` are small JSON objects.
    static let bodyLimit = 16 * 1024
    /// Request targets: far above anything the page asks for (a path and a token).
    static let uriLimit = 8 * 1024

    /// A server for `session`; nothing listens until `start()`.
    public init(session: AVCaptureSession, configuration: Configuration = Configuration()) throws(ServerError) {
        let loopback = configuration.host == "127.0.0.1" || configuration.host.hasPrefix("127.")
        token = configuration.token.flatMap(AccessToken.init)
        if !loopback && token == nil { throw .tokenRequired(host: configuration.host) }
        if let name = configuration.allowedHosts.first(where: { !RequestPolicy.isHostName($0) }) {
            throw .badConfiguration("allowed host '\(name)' is not a host name (letters, digits, '-' and '.') or an IP address")
        }
        let connections = 2...Configuration.maximumConnections
        guard connections.contains(configuration.connectionLimit),
            (1...configuration.connectionLimit).contains(configuration.connectionsPerAddress ?? 1)
        else {
            throw .badConfiguration(
                "connectionLimit must be in \(connections) and connectionsPerAddress in 1...connectionLimit (\(configuration.connectionLimit))")
        }
        // Written so that NaN fails it too.
        guard configuration.requestTimeout > 0 && configuration.requestTimeout <= Configuration.maximumRequestTimeout else {
            throw .badConfiguration("requestTimeout must be above 0 and at most \(Int(Configuration.maximumRequestTimeout)) seconds")
        }
        policy = RequestPolicy(boundTo: configuration.host, allowing: configuration.allowedHosts)
        streams = StreamSlots(connectionLimit: configuration.connectionLimit)
        if let directory = configuration.saveDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue,
                FileManager.default.isWritableFile(atPath: directory.path)
            else { throw .unwritableSaveDirectory(directory.path) }
            saved = SavedCaptures(directory: directory)
        } else {
            saved = nil
        }
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
        if let saved, !saved.attach(to: session) {
            session.removeOutput(output)
            throw .noCamera
        }
    }

    /// The names `Host` may give (lower-cased, without port, sorted): the server says only
    /// that a refused name is not one of them, since a rebinding page could read a list.
    public var hostNames: [String] { policy.names.sorted() }

    /// The port listened on, once started.
    public var port: UInt16 { daemon?.port ?? 0 }

    /// `http://host:port/`, once started.
    public var url: URL? { daemon.map { URL(string: "http://\(configuration.host):\($0.port)/")! } }

    /// Starts listening (the session is started and stopped by the app, as with any output).
    public func start() throws(ServerError) {
        guard daemon == nil else { return }
        do {
            let loopback = configuration.host.hasPrefix("127.")
            daemon = try HTTPDaemon(
                host: configuration.host, port: configuration.port, connectionLimit: configuration.connectionLimit,
                addressLimit: configuration.connectionsPerAddress ?? (loopback ? 0 : configuration.connectionLimit / 2),
                requestTimeout: configuration.requestTimeout, bodyLimit: Self.bodyLimit, uriLimit: Self.uriLimit
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
        saved?.detach(from: session)
    }

    /// A point in 0...1 of the served picture in device coordinates, through the output's
    /// own conversion (which knows its connection's rotation and mirroring).
    private func devicePoint(_ point: CGPoint) -> CGPoint {
        let size = frames.lastFrameSize
        let rect = CGRect(x: point.x * size.width, y: point.y * size.height, width: 0, height: 0)
        return output.metadataOutputRectConverted(fromOutputRect: rect).origin
    }

    /// `/status`: the camera's state and the session's capture controls.
    private func status(of camera: AVCaptureDevice) -> [String: Any] {
        var status = CameraStatus.json(device: camera, frames: frames)
        status["controls"] = SessionControls.json(session)
        status["cameras"] = SessionSettings.cameras.map { ["uniqueID": $0.uniqueID, "name": $0.localizedName] }
        status["sessionPreset"] = session.sessionPreset.rawValue
        status["presets"] = AVCaptureSession.Preset.allPresets.filter { $0 == session.sessionPreset || session.canSetSessionPreset($0) }.map {
            ["rawValue": $0.rawValue, "name": $0.rawValue.replacingOccurrences(of: "AVCaptureSessionPreset", with: "")]
        }
        status["capture"] = ["photos": saved?.canTakePhotos ?? false, "movies": saved?.canRecord ?? false, "recording": saved?.isRecording ?? false]
        return status
    }

    /// An MJPEG stream whose viewer is a control surface of the session while it watches:
    /// the session's capture controls are active while anyone watches (see `SessionControls`).
    private func liveStream() -> MJPEGStream {
        session.controlSurfaceDidAppear()
        return MJPEGStream(frames: frames) { [session] in session.controlSurfaceDidDisappear() }
    }

    /// The answer to a stream beyond `streams.limit`.
    private var tooManyStreams: WebResponse {
        .refusal(503, "\(streams.limit) streams (/stream.mjpg, /events) are open, the most this server keeps; the rest of its connections stay for other requests")
    }

    private var camera: AVCaptureDevice? {
        output.connection(with: .video)?.inputPorts.first.flatMap { ($0.input as? AVCaptureDeviceInput)?.device }
    }

    // MARK: routes (on connection threads)

    private func route(_ request: WebRequest) -> WebResponse {
        // Host first: a rebinding page learns nothing, not even whether a token is needed.
        if let refusal = policy.refusal(ofRepeatedHeaders: request) ?? policy.refusal(ofHost: request) { return refusal }
        if let refusal = policy.refusal(ofOtherSite: request) { return refusal }
        if let token, !token.admits(request) {
            var refusal = WebResponse.refusal(401, "this server needs its token: Authorization: Bearer TOKEN, or ?token=TOKEN")
            refusal.headers.append(("WWW-Authenticate", "Bearer"))
            return refusal
        }
        if let refusal = policy.refusal(ofStateChange: request) { return refusal }
        if request.bodyTooLarge { return .refusal(413, "the body is over \(Self.bodyLimit) bytes") }
        switch (request.method, request.path) {
        case ("GET", "/"), ("HEAD", "/"):
            return WebResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: .data(Data(WebPage.html.utf8)))
        case ("GET", "/stream.mjpg"):
            guard let stream = streams.admit({ liveStream() }) else { return tooManyStreams }
            return WebResponse(
                status: 200,
                headers: [("Content-Type", "multipart/x-mixed-replace; boundary=\(MJPEGStream.boundary)"), ("Cache-Control", "no-store")],
                body: .stream(stream))
        case ("GET", "/snapshot.jpg"):
            guard let frame = frames.frame(after: frames.newestSequence, timeout: 5) else {
                return .failure(503, "no frame from the camera within 5 s")
            }
            return .bytes(frame.jpeg, type: "image/jpeg")
        case ("GET", "/status"):
            guard let camera else { return .failure(503, "the session has no camera") }
            return .json(status(of: camera))
        case ("GET", "/events"):
            let events = streams.admit {
                StatusEvents { [weak self] in self.flatMap { server in server.camera.map { server.status(of: $0) } } }
            }
            guard let events else { return tooManyStreams }
            return WebResponse(
                status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")], body: .stream(events))
        case ("POST", "/control"):
            do {
                if let settings = SessionSettings.named(in: request.body) {
                    try SessionSettings.apply(settings, to: session)
                } else {
                    guard let camera else { return .failure(503, "the session has no camera") }
                    try CameraControls.apply(request.body, to: camera, devicePoint: devicePoint) { [session] in
                        session.automaticallyConfiguresCaptureDeviceForWideColor = false
                    }
                }
            } catch {
                return .failure(400, error.reason)
            }
            guard let camera else { return .failure(503, "the session has no camera") }
            return .json(status(of: camera))
        case ("POST", "/controls"):
            do {
                try SessionControls.apply(request.body, to: session)
            } catch {
                return .failure(400, error.reason)
            }
            return .json(SessionControls.json(session))
        case ("POST", "/photo"):
            guard let saved else { return .failure(404, "photos are not saved here: the server has no save directory") }
            guard request.body.isEmpty || JSONValue.object(in: request.body) == [:] else {
                return .failure(400, "the body must be {} (a photo takes no settings)")
            }
            do {
                return .json(["file": "/files/" + (try saved.takePhoto())])
            } catch {
                return .failure(error.status, error.reason)
            }
        case ("POST", "/record"):
            guard let saved else { return .failure(404, "movies are not saved here: the server has no save directory") }
            guard let body = JSONValue.object(in: request.body), body.count == 1, let action = body["action"]?.string,
                action == "start" || action == "stop"
            else { return .failure(400, "the body must be {\"action\": \"start\"} or {\"action\": \"stop\"}") }
            do {
                let name = try action == "start" ? saved.startRecording() : saved.stopRecording()
                return .json(["file": "/files/" + name, "recording": action == "start"])
            } catch {
                return .failure(error.status, error.reason)
            }
        case ("GET", let path) where path.hasPrefix("/files/"):
            let name = String(path.dropFirst("/files/".count))
            guard let file = saved?.file(named: name), let data = try? Data(contentsOf: file) else {
                return .failure(404, "no saved file \(name)")
            }
            var response = WebResponse.bytes(data, type: name.hasSuffix(".jpg") ? "image/jpeg" : "video/quicktime")
            response.headers.append(("Content-Disposition", "attachment; filename=\"\(name)\""))
            return response
        case (_, "/"), (_, "/stream.mjpg"), (_, "/snapshot.jpg"), (_, "/status"), (_, "/events"), (_, "/control"), (_, "/controls"),
            (_, "/photo"), (_, "/record"):
            return .failure(405, "\(request.method) is not allowed on \(request.path)")
        default:
            return .failure(
                404, "no such path: \(request.path); paths: /, /stream.mjpg, /snapshot.jpg, /status, /events, /control, /controls, /photo, /record, /files/NAME")
        }
    }
}
