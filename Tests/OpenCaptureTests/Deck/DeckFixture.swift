import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// Clips made by ffmpeg for the file-deck tests, ffmpeg's own frame checksums of them, and
/// a video data output delegate that checksums what a deck delivers.
enum DeckFixture {
    static let width = 160, height = 120, rate = 25

    /// A temporary directory of this test process.
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oc-deck-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Runs a tool (30 s at most, through `ChildProcess`) and returns its standard output.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
        try ChildProcess.run(tool, arguments, stderr: .discard, within: .seconds(30), sourceLocation: sourceLocation).stdoutData
    }

    /// A `frames`-long testsrc2 clip encoded with `arguments` (ffmpeg output options).
    static func clip(_ name: String, frames: Int = 12, _ arguments: [String]) throws -> URL {
        let url = directory.appendingPathComponent("\(UUID().uuidString.prefix(8))-\(name)")
        try run(
            "/usr/bin/ffmpeg",
            ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=\(rate)", "-frames:v", String(frames)]
                + arguments + ["-y", url.path])
        try #require(FileManager.default.fileExists(atPath: url.path), "ffmpeg made no \(name)")
        return url
    }

    /// ffmpeg's SHA-256 of each decoded frame in `pixelFormat` (`-f framehash`, the hash
    /// family of `-f framemd5`; Foundation on Linux has SHA-256 here but no MD5), in order.
    static func hashes(_ url: URL, pixelFormat: String, input: [String] = []) throws -> [String] {
        let text = String(
            decoding: try run(
                "/usr/bin/ffmpeg",
                ["-v", "error", "-nostdin"] + input + ["-i", url.path, "-fps_mode", "passthrough", "-pix_fmt", pixelFormat, "-f", "framehash", "-hash", "sha256", "-"]),
            as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            line.split(separator: ",").last.map { String($0.trimmingCharacters(in: .whitespaces).split(separator: "=").last!) }
        }
    }

    /// The SHA-256 of a buffer's pixels packed as FFmpeg packs a frame (planes in order, no
    /// row padding): yuv420p / yuvj420p for 'y420' / 'f420', nv12 for 420v/420f, bgra for BGRA.
    static func hash(_ buffer: CVPixelBuffer) -> String {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        var bytes: [UInt8] = []
        let planes = CVPixelBufferGetPlaneCount(buffer)
        func append(_ base: UnsafeMutableRawPointer, stride: Int, rowBytes: Int, rows: Int) {
            let start = base.assumingMemoryBound(to: UInt8.self)
            for y in 0..<rows { bytes.append(contentsOf: UnsafeBufferPointer(start: start + y * stride, count: rowBytes)) }
        }
        if planes == 0 {
            append(
                CVPixelBufferGetBaseAddress(buffer)!, stride: CVPixelBufferGetBytesPerRow(buffer), rowBytes: CVPixelBufferGetWidth(buffer) * 4,
                rows: CVPixelBufferGetHeight(buffer))
        } else {
            for plane in 0..<planes {
                let width = CVPixelBufferGetWidthOfPlane(buffer, plane)
                let interleaved = plane == 1 && planes == 2
                append(
                    CVPixelBufferGetBaseAddressOfPlane(buffer, plane)!, stride: CVPixelBufferGetBytesPerRowOfPlane(buffer, plane),
                    rowBytes: interleaved ? width * 2 : width, rows: CVPixelBufferGetHeightOfPlane(buffer, plane))
            }
        }
        return SHA256.hex(bytes)
    }

    /// A deck for `url`, playing virtually (every frame, as fast as the test takes them).
    static func deck(_ url: URL, speed: Float = 1, loops: Bool = false) throws -> AVCaptureDevice {
        let device = try AVCaptureDevice.fileDeck(url: url)
        device.deck?.pacing = .virtual
        device.deck?.loops = loops
        try transport(device, .playing, speed)
        return device
    }

    static func transport(_ device: AVCaptureDevice, _ mode: AVCaptureDevice.TransportControlsPlaybackMode, _ speed: Float) throws {
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.setTransportControlsPlaybackModeChecked(mode, speed: speed)
    }

    /// A running session with the deck and a video data output in `pixelFormat`.
    static func session(
        _ device: AVCaptureDevice, pixelFormat: OSType, collector: DeckCollector, extra: [AVCaptureOutput] = [], discardsLate: Bool = false
    ) throws -> AVCaptureSession {
        let session = AVCaptureSession()
        session.beginConfiguration()
        try session.addInputChecked(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureVideoDataOutput()
        try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey as String: pixelFormat])
        output.alwaysDiscardsLateVideoFrames = discardsLate
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        try session.addOutputChecked(output)
        for other in extra { try session.addOutputChecked(other) }
        session.commitConfiguration()
        session.startRunning()
        return session
    }

    /// Waits until the deck's transport stops by itself (an end of the file), and for the
    /// delegate call of its last frame (the deck stops once that call has begun).
    static func waitForStop(_ device: AVCaptureDevice, _ collector: DeckCollector, sourceLocation: SourceLocation = #_sourceLocation) {
        let deadline = Date(timeIntervalSinceNow: 10)
        while device.transportControlsPlaybackMode == .playing && Date() < deadline { usleep(1_000) }
        #expect(device.transportControlsPlaybackMode == .notPlaying, "the deck did not stop at the end", sourceLocation: sourceLocation)
        collector.queue.sync {}
    }
}

/// Records the checksum and presentation time of every frame a video data output delivers
/// (and counts the drops it reports);
/// `onFrame` runs in the delegate call, with the frame's number (counted from 0), before
/// the frame is recorded.
final class DeckCollector: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "test.deck.frames")
    private let condition = NSCondition()
    private var hashes_: [String] = []
    private var times_: [CMTime] = []
    private var formats_: [OSType] = []
    private var drops_ = 0
    nonisolated(unsafe) var onFrame: ((Int) -> Void)?

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let buffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let hash = DeckFixture.hash(buffer)
        // The hook runs before the frame is counted, so a wait for it returns after the hook.
        onFrame?(condition.withLock { hashes_.count })
        condition.lock()
        hashes_.append(hash)
        times_.append(CMSampleBufferGetPresentationTimeStamp(sampleBuffer))
        formats_.append(CVPixelBufferGetPixelFormatType(buffer))
        condition.broadcast()
        condition.unlock()
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        condition.withLock { drops_ += 1 }
    }

    var hashes: [String] { condition.withLock { hashes_ } }
    var drops: Int { condition.withLock { drops_ } }
    var times: [CMTime] { condition.withLock { times_ } }
    var formats: [OSType] { condition.withLock { formats_ } }

    /// Waits (up to 10 s) until `count` frames have arrived in all; returns them all.
    @discardableResult
    func wait(for count: Int, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let deadline = Date(timeIntervalSinceNow: 10)
        condition.lock()
        defer { condition.unlock() }
        while hashes_.count < count && condition.wait(until: deadline) {}
        #expect(hashes_.count >= count, "\(hashes_.count) of \(count) frames arrived", sourceLocation: sourceLocation)
        return hashes_
    }
}

/// The first runtime error a session posts (`AVCaptureSession.runtimeErrorNotification`).
final class RuntimeErrorWatch: @unchecked Sendable {
    private let condition = NSCondition()
    private var error: AVError?
    private var observer: NSObjectProtocol?

    init(_ session: AVCaptureSession) {
        observer = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil) {
            [weak self] note in
            guard let self else { return }
            condition.withLock {
                if error == nil { error = note.userInfo?[AVCaptureSessionErrorKey] as? AVError }
                condition.broadcast()
            }
        }
    }

    deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }

    /// The error, waiting up to `seconds` for one; nil when none came.
    func wait(seconds: Double = 10) -> AVError? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while error == nil && condition.wait(until: deadline) {}
        return error
    }
}
