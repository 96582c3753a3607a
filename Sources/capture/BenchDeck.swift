import Foundation
import OpenCapture

/// `capture bench --deck FILE`: a file deck's decode-to-delegate throughput, forwards and
/// backwards, beside `ffmpeg -f null` decoding the same file, the runs alternating.
enum BenchDeck {
    /// Rounds of (ffmpeg, deck forwards in y420, deck forwards in 420v, deck backwards).
    static let rounds = 2

    static func report(path: String) throws -> [String: Any] {
        let url = URL(fileURLWithPath: path)
        let opened = DispatchTime.now().uptimeNanoseconds
        let device = try DeviceLookup.deck("file:" + path, option: "--deck")
        let openSeconds = Double(DispatchTime.now().uptimeNanoseconds - opened) / 1e9
        guard let deck = device.deck else { throw UsageError("--deck \(ErrorText.quoted(path)) is not a file deck") }
        deck.pacing = .virtual
        deck.loops = false
        var ffmpeg: [[String: Any]] = []
        var forwardsY420: [[String: Any]] = []
        var forwards420v: [[String: Any]] = []
        var backwards: [[String: Any]] = []
        for _ in 0..<rounds {
            ffmpeg.append(ffmpegRun(url))
            // Forwards from the start each time: the previous backward run stopped at the first frame.
            forwardsY420.append(try DeckRun(device: device, speed: 1, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar).measure().json)
            backwards.append(try DeckRun(device: device, speed: -1, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar).measure().json)
            forwards420v.append(try DeckRun(device: device, speed: 1, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange).measure().json)
            backwards.append(try DeckRun(device: device, speed: -1, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange).measure().json)
        }
        let best = { (runs: [[String: Any]]) in runs.compactMap { $0["fps"] as? Double }.max() ?? 0 }
        let ffmpegBest = ffmpeg.compactMap { $0["fps_rtime"] as? Double }.max() ?? 0
        let dimensions = device.activeFormat.formatDescription.dimensions
        var report: [String: Any] = [
            "file": url.path, "size": "\(dimensions.width)x\(dimensions.height)", "frame_rate": deck.frameRate, "open_seconds": (openSeconds * 1000).rounded() / 1000,
            "ffmpeg_null": ffmpeg, "deck_forwards_y420": forwardsY420, "deck_forwards_420v": forwards420v, "deck_backwards": backwards,
        ]
        if ffmpegBest > 0 {
            report["ratio_forwards_y420_vs_ffmpeg"] = (best(forwardsY420) / ffmpegBest * 100).rounded() / 100
            report["ratio_forwards_420v_vs_ffmpeg"] = (best(forwards420v) / ffmpegBest * 100).rounded() / 100
        }
        let forwardMs = 1000 / max(best(forwardsY420), 1), backwardMs = 1000 / max(best(backwards), 1)
        report["ms_per_frame_forwards_y420"] = (forwardMs * 100).rounded() / 100
        report["ms_per_frame_backwards"] = (backwardMs * 100).rounded() / 100
        report["backwards_cost_vs_forwards"] = (backwardMs / forwardMs * 100).rounded() / 100
        return report
    }

    /// `ffmpeg -benchmark -i FILE -f null -`: its own decode loop time (rtime, after opening
    /// the file, as the deck's runs start after it is open), its CPU time, and the whole
    /// process's wall time.
    private static func ffmpegRun(_ url: URL) -> [String: Any] {
        let arguments = ["-hide_banner", "-nostdin", "-benchmark", "-i", url.path, "-f", "null", "-"]
        var result: [String: Any] = ["command": (["ffmpeg"] + arguments).joined(separator: " ")]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            try process.run()
        } catch {
            result["error"] = "\(error)"
            return result
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard process.terminationStatus == 0 else {
            result["error"] = "exit status \(process.terminationStatus)"
            return result
        }
        // "frame=  600 fps=..." (the last progress line) and "bench: utime=4.1s stime=0.2s rtime=2.5s".
        let frames = text.components(separatedBy: "frame=").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }) } ?? 0
        func seconds(_ key: String) -> Double? {
            guard let range = text.range(of: key + "=", options: .backwards) else { return nil }
            return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        result["frames"] = frames
        result["wall_seconds"] = (wall * 1000).rounded() / 1000
        if let rtime = seconds("rtime"), rtime > 0 {
            result["rtime_seconds"] = rtime
            result["fps_rtime"] = (Double(frames) / rtime * 10).rounded() / 10
        }
        if let user = seconds("utime"), let system = seconds("stime") { result["cpu_seconds"] = ((user + system) * 1000).rounded() / 1000 }
        result["fps_wall"] = (Double(frames) / wall * 10).rounded() / 10
        return result
    }
}

/// One pass of a deck through its file (to the end forwards, to the start backwards) into a
/// video data output with a no-op delegate, on virtual time: every frame, as fast as it goes.
final class DeckRun: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let device: AVCaptureDevice
    private let speed: Float
    private let pixelFormat: OSType
    private let queue = DispatchQueue(label: "capture.bench.deck")
    // Touched on `queue` only.
    private var delivered = 0
    private var lastTime: UInt64 = 0

    private var frames = 0
    private var seconds = 0.0
    private var cpuSeconds = 0.0

    init(device: AVCaptureDevice, speed: Float, pixelFormat: OSType) {
        self.device = device
        self.speed = speed
        self.pixelFormat = pixelFormat
    }

    var json: [String: Any] {
        [
            "frames": frames, "seconds": (seconds * 1000).rounded() / 1000, "cpu_seconds": (cpuSeconds * 1000).rounded() / 1000,
            "fps": (Double(frames) / max(seconds, 1e-9) * 10).rounded() / 10, "speed": Double(speed),
            "pixel_format": pixelFormat == kCVPixelFormatType_420YpCbCr8Planar ? "y420" : "420v",
        ]
    }

    func measure() throws -> DeckRun {
        let session = AVCaptureSession()
        let input = try AVCaptureDeviceInput(device: device)
        let output = AVCaptureVideoDataOutput()
        try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey: pixelFormat])
        output.alwaysDiscardsLateVideoFrames = false
        output.setSampleBufferDelegate(self, queue: queue)
        session.addInput(input)
        session.addOutput(output)
        try device.lockForConfiguration()
        try device.setTransportControlsPlaybackModeChecked(.notPlaying, speed: speed)
        device.unlockForConfiguration()
        session.startRunning()
        let cpuBefore = Self.cpuTime()
        let start = DispatchTime.now().uptimeNanoseconds
        try device.lockForConfiguration()
        try device.setTransportControlsPlaybackModeChecked(.playing, speed: speed)
        device.unlockForConfiguration()
        // The deck stops by itself at the end of the file (at its start, backwards).
        while device.transportControlsPlaybackMode == .playing { usleep(1000) }
        queue.sync {}
        let cpuAfter = Self.cpuTime()
        session.stopRunning()
        frames = queue.sync { delivered }
        seconds = Double(queue.sync { lastTime } - start) / 1e9
        cpuSeconds = cpuAfter - cpuBefore
        return self
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        delivered += 1
        lastTime = DispatchTime.now().uptimeNanoseconds
    }

    /// This process's user and system CPU seconds.
    private static func cpuTime() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
