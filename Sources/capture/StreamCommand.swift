import Foundation
import MediaIO
import OpenCapture

/// `capture stream`: publishes the camera (and a microphone) live (AVCaptureStreamOutput).
enum StreamCommand {
    static let spec = CommandSpec(
        name: "stream", summary: "Publish the camera live to an RTSP, SRT or RTMP server", synopsis: "URL [options]",
        description: """
            Publishes H.264 (or HEVC) video, tuned for low latency, with AAC audio from a
            microphone if --audio names one: to rtsp://HOST[:PORT]/PATH (RTSP ANNOUNCE/RECORD
            push, as MediaMTX and GStreamer servers take), srt://HOST:PORT (MPEG-TS; add
            ?mode=listener to wait for a caller) or rtmp://HOST[:PORT]/APP/STREAM (FLV, H.264
            only). WHIP is not available: this FFmpeg has no whip muxer. A server that cannot be
            reached at the start ends the command (status 2), as does one that never answers
            before --duration ends; one lost later is retried with back-off, each attempt
            reported on standard error. Messages show the URL with its password (and an SRT
            passphrase) as ***. --time-code shows each frame's capture time as a QR code in a
            simulated camera's picture, for measuring latency. Without --duration it streams
            until Ctrl-C (SIGINT) or SIGTERM.
            """,
        options: CaptureOptions.camera + [
            .value("--url", "URL", help: "Where to publish (the same as the URL argument)") { _, _ in },
            .value("--codec", "C", help: "h264 (default) or hevc (also h265; not over RTMP)") { option, text in
                guard ["h264", "hevc", "h265"].contains(text.lowercased()) else { throw UsageError.value(option, text, allowed: "h264 or hevc") }
            },
            .integer("--bitrate", "BPS", in: 50_000...100_000_000, help: "Average video bits per second, 50000...100000000 (default 2000000)"),
            .value("--audio", "ID", help: "Microphone unique ID, 'default' for the default microphone, or 'none' (default)") { option, text in
                guard text != "none", text != "default" else { return }
                try DeviceLookup.checkID(option, text)
            },
            .flag("--time-code", help: "Show each frame's capture time as a QR code in the corner (simulated cameras)"),
            .decimal("--duration", "S", in: 0...86_400, excludingLowerBound: true, unit: "s", help: "Stop after S seconds"),
        ],
        positional: .init(name: "URL", option: "--url"),
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        guard let text = args.value("--url") else { throw UsageError("stream needs a URL (rtsp://, srt:// or rtmp://)") }
        let shown = StreamTarget.display(text)
        guard let url = URL(string: text) else { throw UsageError("'\(shown)' is not a URL") }
        let output = AVCaptureStreamOutput()
        if let bitRate = args.integer("--bitrate") { output.averageBitRate = bitRate }
        if ["hevc", "h265"].contains(args.value("--codec")?.lowercased() ?? "h264") {
            guard output.availableVideoCodecTypes.contains(.hevc) else { throw UsageError("this FFmpeg cannot encode HEVC (no libx265)") }
            if url.scheme?.lowercased() == "rtmp" { throw UsageError("RTMP carries H.264 only here; use --codec h264 or rtsp:// or srt://") }
            output.videoCodecType = .hevc
        }
        let plan = try CapturePlan(args)
        let session = AVCaptureSession()
        try SessionSetup.configure(session, plan: plan, outputs: [output])
        if args.has("--time-code") { try showTimeCode(on: plan.device) }
        if let audio = args.value("--audio"), audio != "none" {
            let microphone = try AudioCommand.microphone(audio == "default" ? nil : audio)
            let input = try AVCaptureDeviceInput(device: microphone)
            try session.addInputChecked(input)
        }
        let watcher = StreamWatcher(shownURL: shown)
        output.setDelegate(watcher, queue: watcher.queue)
        do {
            try output.startStreaming(to: url)
        } catch {
            throw UsageError(error.message)
        }
        let signals = SignalWatcher(queue: .global()) { _ in watcher.finish(nil) }
        defer { signals.cancel() }
        try session.startRunningChecked()
        FileHandle.standardError.write(Data("streaming \(plan.device.localizedName) to \(shown); Ctrl-C stops\n".utf8))
        let failure = watcher.wait(seconds: args.decimal("--duration"))
        let (connections, lastError) = (output.connectionCount, output.lastError)
        output.stopStreaming()
        session.stopRunning()
        if let failure { throw failure }
        let seconds = String(format: "%.1f", watcher.elapsed)
        // A stream that never connected sent nothing: a failure, whatever ended the wait.
        guard connections > 0 else {
            let why = lastError.map { "the last attempt: \($0.message)" } ?? "the server never answered"
            throw UsageError("cannot stream to \(shown): no connection in \(seconds) s (\(why))")
        }
        FileHandle.standardError.write(Data(summary(output, seconds: seconds).utf8))
        return 0
    }

    /// "streamed 30 frames (1234 bytes, 0 dropped, 1 connection) in 1.0 s".
    static func summary(_ output: AVCaptureStreamOutput, seconds: String) -> String {
        "streamed \(Plural.count(output.sentFrameCount, "frame")) (\(Plural.count(output.sentByteCount, "byte")), "
            + "\(output.droppedFrameCount) dropped, \(Plural.count(output.connectionCount, "connection"))) in \(seconds) s\n"
    }

    /// A time-code card in the top-left corner, 0.35 of the frame's height across (4 pixels
    /// a module at 288 lines, which H.264 at 300 kbit/s keeps readable).
    static func showTimeCode(on device: AVCaptureDevice) throws {
        guard let simulation = device.simulation else { throw UsageError("--time-code needs a simulated camera") }
        let dimensions = device.activeFormat.formatDescription.dimensions
        let halfAngle = Double(device.activeFormat.videoFieldOfView) * .pi / 360
        let side = 0.35 * Double(dimensions.height) / Double(dimensions.width)  // fraction of the width
        let distance = 0.5
        let element = AVCaptureDevice.Simulation.SceneElement(
            .timeCode, x: side / 2 + 0.02, y: 0.35 / 2 + 0.02 * Double(dimensions.width) / Double(dimensions.height),
            width: side * 2 * distance * tan(halfAngle), distance: distance)
        do { try simulation.setSceneElements([element]) } catch { throw UsageError("--time-code: \(error)") }
    }
}

/// Follows the stream's state on its own queue: the first connection failing ends the
/// command (status 2); later failures are reported and retried.
final class StreamWatcher: NSObject, AVCaptureStreamOutputDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "capture.stream")
    /// The URL as messages show it (`StreamTarget.display`).
    private let shownURL: String
    private let done = DispatchSemaphore(value: 0)
    private let state = Mutex<(failure: (any Error)?, finished: Bool)>((nil, false))
    private let started = Date()
    var elapsed: Double { Date().timeIntervalSince(started) }

    init(shownURL: String) {
        self.shownURL = shownURL
    }

    func streamOutput(_ output: AVCaptureStreamOutput, didChange state: AVCaptureStreamOutput.State, error: AVCaptureStreamOutput.StreamError?) {
        switch state {
        case .streaming:
            FileHandle.standardError.write(Data("connected (\(output.connectionCount == 1 ? "first connection" : "reconnected"))\n".utf8))
        case .reconnecting, .failed:
            let reason = error?.message ?? "unknown failure"
            if output.connectionCount == 0 || state == .failed {
                finish(UsageError("cannot stream to \(shownURL): \(reason)"))
            } else {
                FileHandle.standardError.write(Data("stream lost: \(reason); reconnecting\n".utf8))
            }
        default:
            break
        }
    }

    func streamOutput(_ output: AVCaptureStreamOutput, didDropFrames frames: Int, audioBuffers: Int) {
        let lost = Plural.count(frames, "frame") + ", " + Plural.count(audioBuffers, "audio buffer")
        FileHandle.standardError.write(Data("network behind: dropped \(lost)\n".utf8))
    }

    func finish(_ failure: (any Error)?) {
        let first = state.withLock { current -> Bool in
            guard !current.finished else { return false }
            current = (failure, true)
            return true
        }
        if first { done.signal() }
    }

    /// Waits for the end (a signal, a failure, or `seconds`); returns the failure, if any.
    func wait(seconds: Double?) -> (any Error)? {
        if let seconds { _ = done.wait(timeout: .now() + seconds) } else { done.wait() }
        return state.withLock { $0.failure }
    }
}
