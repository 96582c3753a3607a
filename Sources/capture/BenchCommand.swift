import CAllocCounter
import CRenderKernels
import Foundation
import OpenCapture

/// `capture bench`: throughput, latency and allocations, next to GStreamer and FFmpeg.
enum BenchCommand {
    static let spec = CommandSpec(
        name: "bench", summary: "Measure throughput, latency and allocations (use a release build)",
        description: """
            Prints JSON with:
              throughput   frames per second through a session with a no-op delegate, on
                           virtual time, at 1280x720, 1920x1080 and 3840x2160 in 420v and BGRA
              one_core     the same throughput runs with the process pinned to one core (a
                           child 'capture bench --cores 1 --throughput-only')
              latency      median and p99 milliseconds from a frame's timestamp to its delegate
                           call, in real time (1920x1080 420v at 30 fps)
              allocations  heap allocations per frame in steady state (1920x1080 420v)
              movie        frames per second recording 1920x1080 H.264 MP4 on virtual time
              photo        median milliseconds from capturePhoto to a finished 4032x3024 JPEG
              peers        the same 1920x1080 NV12 job through gst-launch-1.0 (videotestsrc
                           pattern=snow) and ffmpeg (lavfi testsrc2), run side by side
              autofocus    frames delivered and dropped in 5 s of real time with continuous
                           autofocus searching all the time (a new search as each ends), at
                           1920x1080 30 fps, 1280x720 60 fps and 30 fps, and 1280x720 30 fps with
                           focus locked
              render_kernels  which build of the render kernels this CPU runs (x86-64-v4 is
                           AVX-512, x86-64-v3 AVX2)
            With --photo-only, the photo pipeline instead: 4032x3024 JPEG and HEIC encodes
            against cjpeg and heif-enc on the same pixels, capturePhoto-to-file per quality
            prioritization, zero shutter lag as photo timestamp minus call time (on and off),
            and the bytes the zero-shutter-lag history and the Live Photo ring hold.
            With --deck FILE, a file deck instead: FILE decoded to a no-op delegate on virtual
            time, forwards (in y420 and 420v) and backwards, alternating with
            'ffmpeg -benchmark -i FILE -f null -' (its decode loop time, rtime), two rounds.
            With --writer, the asset layer instead: AVAssetWriter's CPU per 1920x1080 H.264
            frame (8 Mbit/s, a keyframe every 60) against ffmpeg's libx264 with the same
            settings on a .y4m of the same frames, and AVAssetReader's decode throughput against
            'ffmpeg -f null' (default threads and -threads 1) on the file written; two rounds,
            the runs alternating (--frames, default 600, capped at 300 here: they are held in memory).
            Build it in release mode for meaningful numbers: swift build -c release.
            """,
        options: [
            .integer("--frames", in: 30...100_000, help: "Frames per throughput run at 1080p (default 600; 4K runs a third)"),
            .flag("--skip-peers", help: "Do not run GStreamer and FFmpeg"),
            .integer("--cores", in: 1...1024, help: "Pin the process to N of the cores it may run on first"),
            .flag("--throughput-only", help: "Measure throughput only (no one-core child, latency, movie, photo, autofocus or peers)"),
            .flag("--autofocus-only", help: "Measure the autofocus section only"),
            .flag("--photo-only", help: "Measure the photo pipeline only (encoders against cjpeg and heif-enc, latency, zero shutter lag, memory)"),
            .flag("--writer", help: "Measure AVAssetWriter and AVAssetReader against ffmpeg only"),
            .value("--deck", "FILE", help: "Measure a file deck playing FILE forwards and backwards against ffmpeg -f null only") { option, text in
                if text.isEmpty { throw UsageError.value(option, text, allowed: "a video file") }
            },
        ],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let frames = args.integer("--frames") ?? 600
        if let cores = args.integer("--cores") { try CorePinning.pin(toFirst: cores) }
        guard let device = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back), device.simulation != nil else {
            throw UsageError("bench needs the simulated back camera")
        }
        // Which build of the render kernels runs here (see ARCHITECTURE.md, rendering).
        var report: [String: Any] = ["render_kernels": String(cString: oc_render_kernel_level())]
        #if DEBUG
            report["warning"] = "debug build: run 'swift build -c release' and use .build/release/capture for real figures"
        #endif
        if args.has("--throughput-only") && args.has("--autofocus-only") {
            throw UsageError("--throughput-only and --autofocus-only exclude each other")
        }
        if args.has("--autofocus-only") {
            report["autofocus"] = try autofocus(device: device)
            return try printJSON(report)
        }
        if args.has("--writer") {
            report["asset_writer"] = try BenchWriter.report(device: device, frames: min(frames, 300))
            return try printJSON(report)
        }
        if let path = args.value("--deck") {
            report["deck"] = try BenchDeck.report(path: path)
            return try printJSON(report)
        }
        if args.has("--photo-only") {
            report["photo_pipeline"] = try BenchPhotoPipeline.report(device: device)
            return try printJSON(report)
        }
        var throughput: [[String: Any]] = []
        var fps1080p420v = 0.0
        for (width, height) in [(1280, 720), (1920, 1080), (3840, 2160)] {
            for (name, format) in [("420v", kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange), ("BGRA", kCVPixelFormatType_32BGRA)] {
                let count = width == 3840 ? max(30, frames / 3) : frames
                let run = try BenchRun(device: device, width: width, height: height, pixelFormat: format, frames: count, pacing: .virtual).measure()
                if width == 1920 && name == "420v" {
                    fps1080p420v = run.framesPerSecond
                    report["allocations_per_frame"] = run.allocationsPerFrame ?? NSNull()
                }
                throughput.append([
                    "size": "\(width)x\(height)", "pixel_format": name, "frames": run.frames,
                    "fps": (run.framesPerSecond * 10).rounded() / 10, "allocations_per_frame": run.allocationsPerFrame ?? NSNull(),
                ])
            }
        }
        report["throughput"] = throughput
        if args.has("--throughput-only") { return try printJSON(report) }
        report["one_core"] = oneCoreThroughput(frames: frames)
        let latency = try BenchRun(device: device, width: 1920, height: 1080, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, frames: 150, pacing: .realTime).measure()
        report["latency_ms"] = ["median": latency.latencyMedian, "p99": latency.latencyP99, "frames": latency.frames, "fps": 30]
        let movieFPS = try BenchOutputs.movieFramesPerSecond(device: device, frames: 150)
        report["movie_1080p_h264_fps"] = (movieFPS * 10).rounded() / 10
        report["photo_4032x3024_jpeg_ms"] = try BenchOutputs.photoMilliseconds(device: device, count: 5)
        report["autofocus"] = try autofocus(device: device)
        if !args.has("--skip-peers") {
            let gstreamer = Peer.run(
                "gst-launch-1.0",
                ["-q", "videotestsrc", "pattern=snow", "num-buffers=\(frames)", "!", "video/x-raw,format=NV12,width=1920,height=1080", "!", "fakesink"],
                frames: frames)
            let ffmpeg = Peer.run(
                "ffmpeg",
                ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080", "-frames:v", "\(frames)", "-pix_fmt", "nv12", "-f", "null", "-"],
                frames: frames)
            var peers: [String: Any] = ["opencapture_1080p_420v_fps": (fps1080p420v * 10).rounded() / 10]
            peers["gstreamer"] = gstreamer.json
            peers["ffmpeg"] = ffmpeg.json
            if let fps = gstreamer.framesPerSecond { peers["ratio_vs_gstreamer"] = (fps1080p420v / fps * 100).rounded() / 100 }
            if let fps = ffmpeg.framesPerSecond { peers["ratio_vs_ffmpeg"] = (fps1080p420v / fps * 100).rounded() / 100 }
            report["peers"] = peers
        }
        return try printJSON(report)
    }

    /// The `autofocus` section: each of `BenchOutputs.autofocusRuns`, 5 s of real time.
    private static func autofocus(device: AVCaptureDevice) throws -> [[String: Any]] {
        try BenchOutputs.autofocusRuns.map { run in
            // As in the throughput runs: let the previous session finish tearing down.
            Thread.sleep(forTimeInterval: 0.2)
            return try BenchOutputs.autofocusRun(
                device: device, width: run.width, height: run.height, fps: run.fps, searching: run.searching, seconds: 5)
        }
    }

    private static func printJSON(_ report: [String: Any]) throws -> Int32 {
        let data = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: data, as: UTF8.self))
        return 0
    }

    /// The throughput runs again in a child process pinned to one core (pinning this one
    /// would leave it pinned), or why they could not run.
    private static func oneCoreThroughput(frames: Int) -> Any {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return ["error": "cannot find this executable through /proc/self/exe"]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["bench", "--cores", "1", "--throughput-only", "--frames", "\(frames)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return ["error": "\(error)"]
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let runs = json["throughput"]
        else {
            return ["error": "the one-core child exited with status \(process.terminationStatus)"]
        }
        return runs
    }
}

/// A peer tool timed on the same job.
struct Peer {
    var command: String
    var seconds: Double?
    var frames: Int
    var error: String?

    var framesPerSecond: Double? { seconds.map { Double(frames) / $0 } }

    var json: [String: Any] {
        var result: [String: Any] = ["command": command, "frames": frames]
        if let fps = framesPerSecond { result["fps"] = (fps * 10).rounded() / 10 }
        if let error { result["error"] = error }
        return result
    }

    static func run(_ tool: String, _ arguments: [String], frames: Int) -> Peer {
        let command = ([tool] + arguments).joined(separator: " ")
        guard let path = ["/usr/bin/\(tool)", "/usr/local/bin/\(tool)"].first(where: FileManager.default.isExecutableFile) else {
            return Peer(command: command, frames: frames, error: "\(tool) is not installed (scripts/install-deps installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now()
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            return Peer(command: command, frames: frames, error: "\(error)")
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        guard process.terminationStatus == 0 else {
            return Peer(command: command, frames: frames, error: "exit status \(process.terminationStatus)")
        }
        return Peer(command: command, seconds: seconds, frames: frames)
    }
}

/// One measured session run.
final class BenchRun: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let device: AVCaptureDevice
    private let width: Int
    private let height: Int
    private let pixelFormat: OSType
    let frames: Int
    private let pacing: AVCaptureDevice.Simulation.Pacing
    private let queue = DispatchQueue(label: "capture.bench")
    private let done = DispatchSemaphore(value: 0)
    private var delivered = 0
    private var startTime: UInt64 = 0
    private var endTime: UInt64 = 0
    private var allocationsAtWarmup: UInt64 = 0
    private var allocationsAtEnd: UInt64 = 0
    private var latencies: [Double] = []
    private let warmup: Int

    var framesPerSecond: Double { Double(frames - warmup) / (Double(endTime - startTime) / 1e9) }
    /// nil in a sanitizer's build, which counts nothing (JSON null).
    var allocationsPerFrame: Double? {
        oc_allocation_counting() != 0 ? Double(allocationsAtEnd - allocationsAtWarmup) / Double(frames - warmup) : nil
    }
    var latencyMedian: Double { percentile(0.5) }
    var latencyP99: Double { percentile(0.99) }

    init(device: AVCaptureDevice, width: Int, height: Int, pixelFormat: OSType, frames: Int, pacing: AVCaptureDevice.Simulation.Pacing) {
        self.device = device
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.frames = frames
        self.pacing = pacing
        self.warmup = min(30, frames / 3)
        super.init()
        latencies.reserveCapacity(frames)
    }

    func measure() throws -> BenchRun {
        // The previous run's session frees its still renderers on a queue of their own after
        // it stopped; let that finish so it is not counted against this run's frames.
        Thread.sleep(forTimeInterval: 0.2)
        device.simulation?.pacing = pacing
        defer { device.simulation?.pacing = .realTime }
        let session = AVCaptureSession()
        let input = try AVCaptureDeviceInput(device: device)
        let output = AVCaptureVideoDataOutput()
        try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey: pixelFormat])
        output.setSampleBufferDelegate(self, queue: queue)
        session.sessionPreset = .inputPriority
        session.addInput(input)
        session.addOutput(output)
        guard let format = device.formats.first(where: {
            Int($0.formatDescription.dimensions.width) == width && Int($0.formatDescription.dimensions.height) == height && !$0.isVideoBinned
        }) else { throw UsageError("no \(width)x\(height) format on \(device.localizedName)") }
        try device.lockForConfiguration()
        device.activeFormat = format
        device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 30)
        device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 30)
        device.unlockForConfiguration()
        session.startRunning()
        done.wait()
        session.stopRunning()
        session.removeInput(input)
        session.removeOutput(output)
        return self
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard delivered < frames else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        delivered += 1
        if pacing == .realTime {
            let latency = (CMClockGetTime(CMClockGetHostTimeClock()) - sampleBuffer.presentationTimeStamp).seconds * 1000
            if delivered > warmup { latencies.append(latency) }
        }
        if delivered == warmup {
            startTime = now
            allocationsAtWarmup = oc_allocation_count()
        }
        if delivered == frames {
            endTime = now
            allocationsAtEnd = oc_allocation_count()
            done.signal()
        }
    }

    private func percentile(_ p: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let sorted = latencies.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))
        return (sorted[index] * 1000).rounded() / 1000
    }
}
