import Foundation
import OpenCapture
import Synchronization

/// `capture preview`: live video in the terminal through an AVCaptureVideoPreviewLayer.
enum PreviewCommand {
    static let spec = CommandSpec(
        name: "preview", summary: "Show a camera live in the terminal (24-bit colour)", synopsis: "[options]",
        description: """
            Shows a camera live in the terminal (24-bit colour, two pixels per character cell)
            through an AVCaptureVideoPreviewLayer the size of the terminal. Ctrl-C stops.
            """,
        options: CaptureOptions.camera + [
            .integer("--columns", in: 8...2000, help: "Width in characters (default: the terminal's, else 80)"),
            .integer("--rows", in: 3...1000, help: "Height in lines, the status line included (default: the terminal's, else 24)"),
            .choice("--gravity", "G", ["fit", "fill", "stretch"], help: "fit (whole picture, bars; default), fill (crop) or stretch"),
            .integer("--frames", in: 1...10_000_000, help: "Stop after drawing N pictures"),
        ],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let terminal = TerminalPicture.terminalSize()
        let columns = args.integer("--columns") ?? terminal?.columns ?? 80
        let rows = args.integer("--rows") ?? terminal?.rows ?? 24
        let limit = args.integer("--frames")
        let gravity: AVLayerVideoGravity
        switch args.value("--gravity")?.lowercased() {
        case "fill": gravity = .resizeAspectFill
        case "stretch": gravity = .resize
        default: gravity = .resizeAspect
        }
        let plan = try CapturePlan(args)
        let session = AVCaptureSession()
        try SessionSetup.configure(session, plan: plan, outputs: [])
        let layer = AVCaptureVideoPreviewLayer(session: session)
        layer.videoGravity = gravity
        // The last line is the status line; each line shows two pixel rows.
        layer.frame = CGRect(x: 0, y: 0, width: columns, height: 2 * (rows - 1))
        if let connection = layer.connection {
            try connection.setVideoRotationAngle(plan.rotation)
            if plan.mirrored {
                connection.automaticallyAdjustsVideoMirroring = false
                try connection.setVideoMirrored(true)
            }
        }
        let run = PreviewRun(name: plan.device.localizedName, limit: limit)
        let queue = DispatchQueue(label: "capture.preview")
        layer.setDisplayHandler(queue: queue) { picture in run.draw(picture) }
        let signals = SignalWatcher(queue: .global()) { _ in run.finish() }
        defer { signals.cancel() }
        FileHandle.standardOutput.write(Data("\u{1B}[?25l\u{1B}[2J".utf8))
        defer { FileHandle.standardOutput.write(Data("\u{1B}[0m\u{1B}[?25h\n".utf8)) }
        try session.startRunningChecked()
        let receivedAny = run.waitUntilFinished(firstFrameWithin: 10)
        layer.setDisplayHandler(queue: queue, nil)
        queue.sync {}
        session.stopRunning()
        guard receivedAny else {
            FileHandle.standardError.write(Data("capture: no frames from \(plan.device.localizedName) within 10 s\n".utf8))
            return 1
        }
        return 0
    }
}

/// Counts and draws the pictures of one preview, and says when it is over.
final class PreviewRun: @unchecked Sendable {
    private let name: String
    private let limit: Int?
    private let finished = DispatchSemaphore(value: 0)
    private let drawn = Atomic<Int>(0)
    private let over = Atomic<Bool>(false)
    private let started = Date()

    init(name: String, limit: Int?) {
        self.name = name
        self.limit = limit
    }

    /// Draws `picture` (on the display queue) unless the preview is over.
    func draw(_ picture: CVPixelBuffer) {
        guard !over.load(ordering: .acquiring) else { return }
        let count = drawn.add(1, ordering: .relaxed).newValue
        let rate = Double(count) / max(Date().timeIntervalSince(started), 1e-3)
        let status = "\(name)  \(CVPixelBufferGetWidth(picture))x\(CVPixelBufferGetHeight(picture))  picture \(count)  \(String(format: "%.1f", rate)) fps  Ctrl-C stops"
        FileHandle.standardOutput.write(Data(TerminalPicture.draw(picture, status: status)))
        if let limit, count >= limit { finish() }
    }

    /// Ends the preview (the limit was reached, or a signal came).
    func finish() {
        if !over.exchange(true, ordering: .acquiringAndReleasing) { finished.signal() }
    }

    /// Waits for the end; false if no picture came within `seconds` of the start.
    func waitUntilFinished(firstFrameWithin seconds: Double) -> Bool {
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            guard drawn.load(ordering: .relaxed) > 0 else {
                finish()
                return false
            }
            finished.wait()
        }
        return drawn.load(ordering: .relaxed) > 0
    }
}
