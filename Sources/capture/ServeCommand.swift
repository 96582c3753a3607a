import Foundation
import OpenCapture
import OpenCaptureWeb

/// `capture serve`: the camera live in a browser, with its controls (CaptureWebServer).
enum ServeCommand {
    static let spec = CommandSpec(
        name: "serve", summary: "Serve a camera live to a browser, with its controls (HTTP)", synopsis: "[options]",
        description: """
            Serves the camera over HTTP: a page with the live picture and a control panel (/),
            the MJPEG stream (/stream.mjpg), a snapshot (/snapshot.jpg), the camera's state as
            JSON (/status) and POST /control with a JSON object of settings. Loopback only
            unless --listen names another address, which needs --token or --token-file; every
            request must then carry it (Authorization: Bearer TOKEN, or ?token=TOKEN).
            The page is the session's Camera Control: the system zoom and exposure-bias
            sliders (iOS 18 capture controls) are on it, active while someone watches
            (POST /controls). With --save-dir the page's photo and record buttons save
            there (POST /photo, POST /record) and offer the files (/files/NAME).
            Prints the URL it serves on; Ctrl-C stops.
            """,
        options: CaptureOptions.camera + [
            .value("--listen", "ADDR:PORT", help: "IPv4 address and port to listen on, port 0 picks a free one (default 127.0.0.1:8080)") {
                option, text in _ = try listenAddress(option, text)
            },
            .value("--token", "T", help: "Secret every request must carry (printable, 8...256 characters); other users can read it in /proc/PID/cmdline, so prefer --token-file") { option, text in
                _ = try checkedToken(option, text)
            },
            .value("--token-file", "FILE", help: "Read the token from FILE (its first line), which keeps it out of the process list (/proc/PID/cmdline)") { option, text in
                _ = try tokenFromFile(option, text)
            },
            .value(
                "--allow-host", "NAMES",
                help: "More names clients may reach the server by in the Host header, comma-separated (its address, and localhost on loopback, always)"
            ) { option, text in _ = try allowedHosts(option, text) },
            .value("--save-dir", "DIR", help: "Directory the page's photo and record buttons save into (must exist and be writable)") {
                option, text in _ = try saveDirectory(option, text)
            },
            .decimal("--duration", "S", in: 0...86_400, excludingLowerBound: true, unit: "s", help: "Stop after S seconds"),
        ],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let (host, port) = try listenAddress("--listen", args.value("--listen") ?? "127.0.0.1:8080")
        if args.value("--token") != nil && args.value("--token-file") != nil {
            throw UsageError("--token and --token-file cannot both be given")
        }
        let token = try args.value("--token").map { try checkedToken("--token", $0) }
            ?? args.value("--token-file").map { try tokenFromFile("--token-file", $0) }
        if !host.hasPrefix("127.") && token == nil {
            throw UsageError("--listen \(host):\(port) needs --token or --token-file: only loopback (127.0.0.1) is served without one")
        }
        let plan = try CapturePlan(args)
        let session = AVCaptureSession()
        try SessionSetup.configure(session, plan: plan, outputs: [])
        let server: CaptureWebServer
        let hosts = try args.value("--allow-host").map { try allowedHosts("--allow-host", $0) } ?? []
        do {
            let saveDir = try args.value("--save-dir").map { try saveDirectory("--save-dir", $0) }
            server = try CaptureWebServer(
                session: session, configuration: .init(host: host, port: port, token: token, saveDirectory: saveDir, allowedHosts: hosts))
            try server.start()
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        let finished = DispatchSemaphore(value: 0)
        let signals = SignalWatcher(queue: .global()) { _ in finished.signal() }
        defer { signals.cancel() }
        let controls = ControlsLog()
        // The session holds its controls delegate weakly.
        defer { withExtendedLifetime(controls) {} }
        addSystemControls(to: session, camera: plan.device, delegate: controls)
        try session.startRunningChecked()
        FileHandle.standardOutput.write(Data("serving \(server.url!.absoluteString) (\(plan.device.localizedName)); Ctrl-C stops\n".utf8))
        // Here, not in refusals: a DNS rebinding page can read what the server answers.
        FileHandle.standardError.write(Data("answers to Host: \(server.hostNames.joined(separator: ", ")) (more with --allow-host)\n".utf8))
        if let seconds = args.decimal("--duration") {
            _ = finished.wait(timeout: .now() + seconds)
        } else {
            finished.wait()
        }
        server.stop()
        session.stopRunning()
        return 0
    }

    /// The system zoom and exposure-bias sliders, where the camera zooms and sets a bias:
    /// the page shows them as the app's capture controls.
    static func addSystemControls(to session: AVCaptureSession, camera: AVCaptureDevice, delegate: ControlsLog) {
        session.setControlsDelegate(delegate, queue: DispatchQueue(label: "capture.serve.controls"))
        var controls: [AVCaptureControl] = []
        if camera.activeFormat.videoMaxZoomFactor > 1 { controls.append(AVCaptureSystemZoomSlider(device: camera)) }
        if camera.minExposureTargetBias < camera.maxExposureTargetBias { controls.append(AVCaptureSystemExposureBiasSlider(device: camera)) }
        for control in controls where session.canAddControl(control) { session.addControl(control) }
    }

    /// A directory that exists and can be written.
    static func saveDirectory(_ option: String, _ path: String) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("\(option) \(ErrorText.quoted(path)) is not a directory")
        }
        guard FileManager.default.isWritableFile(atPath: path) else { throw UsageError("\(option) \(ErrorText.quoted(path)) cannot be written") }
        return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }

    /// "HOST:PORT" as an IPv4 address and a port.
    static func listenAddress(_ option: String, _ text: String) throws -> (String, UInt16) {
        let allowed = "an IPv4 address and port, e.g. 127.0.0.1:8080 (port 0...65535)"
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let port = StrictNumber.integer(String(parts[1])), (0...65_535).contains(port) else {
            throw UsageError.value(option, text, allowed: allowed)
        }
        var address = in_addr()
        guard inet_pton(AF_INET, String(parts[0]), &address) == 1 else { throw UsageError.value(option, text, allowed: allowed) }
        return (String(parts[0]), UInt16(port))
    }

    static func checkedToken(_ option: String, _ text: String) throws -> String {
        guard (8...256).contains(text.count), text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            // A secret, even a malformed one, is never printed back (terminals, logs, CI output).
            throw UsageError("\(option) takes 8...256 printable ASCII characters without spaces (the value given is not shown)")
        }
        return text
    }

    static func tokenFromFile(_ option: String, _ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw UsageError("\(option) \(ErrorText.quoted(path)) cannot be read")
        }
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard (8...256).contains(line.count), line.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw UsageError("\(option) \(ErrorText.quoted(path)) must hold a token of 8...256 printable ASCII characters on its first line")
        }
        return line
    }
}

/// The session's controls delegate in `capture serve`: says on stderr when a viewer makes
/// the controls active and when they end (on the delegate's queue).
final class ControlsLog: NSObject, AVCaptureSessionControlsDelegate, @unchecked Sendable {
    private func say(_ text: String) { FileHandle.standardError.write(Data("controls: \(text)\n".utf8)) }
    func sessionControlsDidBecomeActive(_ session: AVCaptureSession) { say("active") }
    func sessionControlsWillEnterFullscreenAppearance(_ session: AVCaptureSession) { say("adjusting") }
    func sessionControlsWillExitFullscreenAppearance(_ session: AVCaptureSession) { say("done adjusting") }
    func sessionControlsDidBecomeInactive(_ session: AVCaptureSession) { say("inactive") }
}
