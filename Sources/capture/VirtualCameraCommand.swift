import Foundation
import OpenCapture

/// `capture virtual-camera`: publishes the camera as a PipeWire camera other apps open
/// (AVCaptureVirtualCameraOutput).
enum VirtualCameraCommand {
    static let spec = CommandSpec(
        name: "virtual-camera", summary: "Publish the camera as a PipeWire camera that browsers and other apps open",
        synopsis: "[options]",
        description: """
            Publishes the camera's frames as a PipeWire node (media.class Video/Source,
            media.role Camera) at the camera format's size, offering NV12, I420 and YUY2: a
            browser, OBS or a video-call app opens it like a webcam, through the desktop's
            session manager (WirePlumber) or the Camera portal; no kernel module is needed.
            Any camera works, a simulated one, a video file (--device file:PATH), V4L2 or
            libcamera. The capture never waits for the readers: a frame that finds them behind
            is dropped and counted. Readers may come and go; each is reported on standard
            error. Needs a running PipeWire daemon (PIPEWIRE_REMOTE, else pipewire-0 in
            XDG_RUNTIME_DIR) and the PipeWire plug-in beside the tool; without them the command
            says which is missing and exits 2. Without --duration it publishes until Ctrl-C
            (SIGINT) or SIGTERM, then removes the node.
            """,
        // Not --virtual-time: readers take frames as they come, so nothing would pace the camera.
        options: CaptureOptions.camera.filter { $0.name != "--virtual-time" } + [
            .value("--name", "NAME", help: "The node's name (node.name), 1-64 letters, digits, '-', '_' or '.' (default opencapture-camera)") { option, text in
                guard isNodeName(text) else { throw UsageError.value(option, text, allowed: "1-64 letters, digits, '-', '_' or '.'") }
            },
            .value("--description", "TEXT", help: "The name apps show in their camera lists (default: the camera's name)") { option, text in
                guard !text.isEmpty, text.count <= 128, !text.contains(where: \.isNewline) else {
                    throw UsageError.value(option, text, allowed: "1-128 characters on one line")
                }
            },
            .decimal("--duration", "S", in: 0...86_400, excludingLowerBound: true, unit: "s", help: "Stop after S seconds"),
        ],
        run: run)

    /// Whether `text` is a node name this command publishes: short, and plain for `pw-link`
    /// and `target.object`.
    static func isNodeName(_ text: String) -> Bool {
        (1...64).contains(text.count) && text.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "-_.".unicodeScalars.contains($0) }
    }

    static func run(_ args: Arguments) throws -> Int32 {
        let plan = try CapturePlan(args)
        let output = AVCaptureVirtualCameraOutput()
        output.name = args.value("--name") ?? "opencapture-camera"
        output.localizedName = args.value("--description") ?? plan.device.localizedName
        let session = AVCaptureSession()
        try SessionSetup.configure(session, plan: plan, outputs: [output])
        // The rate the node announces: the camera's, as configured (--fps or the format's).
        let frameDuration = plan.device.activeVideoMinFrameDuration
        if frameDuration.isValid, frameDuration.seconds > 0 { output.frameRate = max(1, Int((1 / frameDuration.seconds).rounded())) }
        do {
            try output.startPublishing()
        } catch {
            throw UsageError("cannot publish a virtual camera: \(error.message)")
        }
        let watch = VirtualCameraWatch()
        let signals = SignalWatcher(queue: .global()) { _ in watch.finish() }
        defer { signals.cancel() }
        try session.startRunningChecked()
        let started = Date()
        let failure = watch.follow(output, device: plan.device.localizedName, seconds: args.decimal("--duration"))
        output.stopPublishing()
        session.stopRunning()
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        FileHandle.standardError.write(
            Data("published \(Plural.count(output.publishedFrameCount, "frame")) (\(output.droppedFrameCount) dropped) in \(seconds) s\n".utf8))
        if let failure { throw failure }
        return 0
    }
}

/// Follows a virtual camera until a signal or the duration ends it, reporting on standard
/// error the node's making, readers coming and going, and drops.
final class VirtualCameraWatch: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    /// A signal arrived (any thread).
    func finish() { done.signal() }

    /// Reports as the output's state changes, every quarter second, until `finish` or
    /// `seconds`; returns the failure that ended it, if any: a node that could not be made.
    func follow(_ output: AVCaptureVirtualCameraOutput, device: String, seconds: Double?) -> (any Error)? {
        let end = seconds.map { Date().addingTimeInterval($0) }
        var announced = false, reading = false, sent = 0, dropped = 0, reportedError: String?
        while true {
            let slice = end.map { min(0.25, max(0, $0.timeIntervalSinceNow)) } ?? 0.25
            if done.wait(timeout: .now() + slice) == .success { return nil }
            if let end, end.timeIntervalSinceNow <= 0 { return nil }
            if !announced, let id = output.nodeID, let size = output.publishedDimensions {
                announced = true
                say("publishing \(device) as PipeWire camera '\(output.name)' (node \(id), \(size.width)x\(size.height) NV12/I420/YUY2); Ctrl-C stops")
            }
            if let error = output.lastError?.message, error != reportedError {
                reportedError = error
                // Never made: nothing to publish to. Lost later: it is made again.
                guard announced else { return CommandFailure(message: "cannot publish a virtual camera: \(error)") }
                say("virtual camera lost: \(error); publishing it again")
                announced = false
            }
            // Frames sent since the last look mean a reader came, even one gone again by now.
            let (readingNow, sentNow) = (output.hasConsumers, output.publishedFrameCount)
            if !reading, readingNow || sentNow > sent {
                reading = true
                say("a reader opened the camera")
            }
            if reading, !readingNow {
                reading = false
                say("no reader now")
            }
            sent = sentNow
            let lost = output.droppedFrameCount
            if lost > dropped {
                say("readers behind: dropped \(Plural.count(lost - dropped, "frame"))")
                dropped = lost
            }
        }
    }

    private func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
}
