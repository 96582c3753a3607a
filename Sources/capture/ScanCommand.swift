import Foundation
import OpenCapture
import Synchronization

/// `capture scan`: prints each code or face a camera sees, once, as a JSON line.
enum ScanCommand {
    static let spec = CommandSpec(
        name: "scan", summary: "Print the codes and faces a camera sees, each once, as JSON lines",
        synopsis: "[options]",
        description: """
            Runs a camera with an AVCaptureMetadataOutput and prints each code it detects the
            first time it is seen: one JSON object a line with its type, string, corners
            (metadata-output coordinates: 0...1 over the unrotated sensor image) and the time of
            its frame. A face is printed once for each faceID, with its bounds, roll and yaw.
            Runs until --count objects or --frames frames, or Ctrl-C.
            """,
        options: CaptureOptions.camera + [
            .value("--types", "LIST", help: "Types to look for, comma-separated: \(CodeTypes.names) (default all the camera can detect)") { option, text in
                _ = try CodeTypes.parse(option, text)
            },
            .integer("--count", in: 1...1_000_000, help: "Stop after N different codes or faces"),
            .integer("--frames", in: 1...100_000_000, help: "Stop after N frames"),
        ],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let plan = try CapturePlan(args)
        let types = try args.value("--types").map { try CodeTypes.parse("--types", $0) }
        let scanner = CodeScanner(count: args.integer("--count"), frames: args.integer("--frames"))
        try scanner.run(plan: plan, types: types)
        return 0
    }
}

/// Runs the session for `capture scan`. Both delegates share one serial queue.
final class CodeScanner: NSObject, AVCaptureMetadataOutputObjectsDelegate, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let queue = DispatchQueue(label: "capture.scan")
    private let finished = DispatchSemaphore(value: 0)
    private let count: Int?
    private let frames: Int?
    // Only touched on `queue`.
    private var seen: [String] = []
    private var framesSeen = 0
    private var done = false

    init(count: Int?, frames: Int?) {
        self.count = count
        self.frames = frames
    }

    /// Runs until done; nil `types` means every type the output can detect.
    func run(plan: CapturePlan, types: [AVMetadataObject.ObjectType]?) throws {
        let session = AVCaptureSession()
        let metadata = AVCaptureMetadataOutput()
        // A video output counts frames (for --frames); it takes the camera's buffers as they are.
        let video = AVCaptureVideoDataOutput()
        video.setSampleBufferDelegate(self, queue: queue)
        try SessionSetup.configure(session, plan: plan, outputs: [video, metadata])
        metadata.setMetadataObjectsDelegate(self, queue: queue)
        try metadata.setMetadataObjectTypes(types ?? metadata.availableMetadataObjectTypes)
        let signals = SignalWatcher(queue: queue) { [weak self] _ in self?.finish() }
        defer { signals.cancel() }
        try session.startRunningChecked()
        finished.wait()
        session.stopRunning()
    }

    private func finish() {
        guard !done else { return }
        done = true
        finished.signal()
    }

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
        for object in metadataObjects where !done {
            let identity = (object as? AVMetadataMachineReadableCodeObject)?.stringValue ?? (object as? AVMetadataFaceObject).map { String($0.faceID) }
            let key = object.type.rawValue + "\u{0}" + (identity ?? "")
            guard !seen.contains(key) else { continue }
            seen.append(key)
            var line = (try? JSONSerialization.data(withJSONObject: CodeTypes.fields(object), options: [.sortedKeys])) ?? Data("{}".utf8)
            line.append(0x0A)
            FileHandle.standardOutput.write(line)
            if let count, seen.count >= count { finish() }
        }
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        framesSeen += 1
        if let frames, framesSeen >= frames { finish() }
    }
}
