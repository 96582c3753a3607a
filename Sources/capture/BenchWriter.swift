import Foundation
import OpenCapture

/// `capture bench --writer`: AVAssetWriter's CPU per 1080p H.264 frame beside `ffmpeg`
/// encoding the same frames (a .y4m of them) with libx264's same settings, and
/// AVAssetReader's decode throughput beside `ffmpeg -f null` on the file written; the runs
/// alternate, two rounds.
enum BenchWriter {
    static let width = 1920, height = 1080, bitRate = 8_000_000, keyframeInterval = 60

    static func report(device: AVCaptureDevice, frames count: Int) throws -> [String: Any] {
        let frames = try FrameGrab(device: device, width: width, height: height, count: count).grab()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oc-bench-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let y4m = folder.appendingPathComponent("frames.y4m")
        try writeY4M(frames, to: y4m)
        var ours: [[String: Any]] = [], peer: [[String: Any]] = [], reader: [[String: Any]] = [], null: [[String: Any]] = [], nullOne: [[String: Any]] = []
        var written: URL?
        for round in 0..<2 {
            let ffmpegOut = folder.appendingPathComponent("ffmpeg-\(round).mp4")
            peer.append(child("/usr/bin/ffmpeg", ffmpegArguments(y4m, ffmpegOut), frames: frames.count))
            let url = folder.appendingPathComponent("ours-\(round).mp4")
            ours.append(try write(frames, to: url))
            written = url
            null.append(child("/usr/bin/ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", url.path, "-f", "null", "-"], frames: frames.count))
            nullOne.append(child("/usr/bin/ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-threads", "1", "-i", url.path, "-f", "null", "-"], frames: frames.count))
            reader.append(try read(url))
        }
        let best = { (runs: [[String: Any]], key: String) in runs.compactMap { $0[key] as? Double }.min() ?? 0 }
        var report: [String: Any] = [
            "size": "\(width)x\(height)", "frames": frames.count, "bit_rate": bitRate, "keyframe_interval": keyframeInterval,
            "asset_writer": ours, "ffmpeg_libx264": peer, "asset_reader_420v": reader, "ffmpeg_null": null, "ffmpeg_null_threads_1": nullOne,
            "source": "the simulated back camera's frames (420v, virtual time), held in memory; frames.y4m holds the same pixels for ffmpeg",
        ]
        let ourCPU = best(ours, "cpu_ms_per_frame"), peerCPU = best(peer, "cpu_ms_per_frame")
        if peerCPU > 0 { report["writer_cpu_ratio_vs_ffmpeg"] = (ourCPU / peerCPU * 100).rounded() / 100 }
        _ = written
        return report
    }

    /// ffmpeg's command: libx264 with the asset writer's settings (preset veryfast, High,
    /// no B-frames, the average bit rate with peaks at 1.5 times it over a 1 s buffer, a
    /// keyframe at least every 60 frames).
    static func ffmpegArguments(_ input: URL, _ output: URL) -> [String] {
        [
            "-hide_banner", "-nostdin", "-v", "error", "-f", "yuv4mpegpipe", "-i", input.path, "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high",
            "-bf", "0", "-b:v", "\(bitRate)", "-maxrate", "\(bitRate * 3 / 2)", "-bufsize", "\(bitRate)", "-g", "\(keyframeInterval)", "-pix_fmt", "nv12",
            "-f", "mp4", "-y", output.path,
        ]
    }

    /// The process's user + system CPU seconds.
    static func cpuSeconds(_ who: __rusage_who = RUSAGE_SELF) -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(who.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    private static func figures(frames: Int, wall: Double, cpu: Double) -> [String: Any] {
        [
            "frames": frames, "wall_seconds": (wall * 1000).rounded() / 1000, "cpu_seconds": (cpu * 1000).rounded() / 1000,
            "cpu_ms_per_frame": (cpu / Double(max(frames, 1)) * 1000 * 100).rounded() / 100, "fps": (Double(frames) / max(wall, 1e-9) * 10).rounded() / 10,
        ]
    }

    /// A child process's wall time and CPU (RUSAGE_CHILDREN across its wait).
    static func child(_ tool: String, _ arguments: [String], frames: Int) -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let cpuBefore = cpuSeconds(RUSAGE_CHILDREN)
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            return ["error": "\(error)"]
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        var result = figures(frames: frames, wall: wall, cpu: cpuSeconds(RUSAGE_CHILDREN) - cpuBefore)
        result["command"] = ([URL(fileURLWithPath: tool).lastPathComponent] + arguments).joined(separator: " ")
        if process.terminationStatus != 0 { result["error"] = "exit status \(process.terminationStatus)" }
        return result
    }

    /// AVAssetWriter, H.264 MP4 from a pixel buffer adaptor: from the first append to
    /// `finishWriting`'s end.
    static func write(_ frames: [CVPixelBuffer], to url: URL) throws -> [String: Any] {
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let input = AVAssetWriterInput(
            mediaType: .video,
            outputSettings: [
                AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: width, AVVideoHeightKey: height,
                AVVideoCompressionPropertiesKey: [
                    AVVideoAverageBitRateKey: bitRate, AVVideoMaxKeyFrameIntervalKey: keyframeInterval, AVVideoExpectedSourceFrameRateKey: 30,
                    AVVideoProfileLevelKey: AVVideoProfileLevelH264HighAutoLevel,
                ],
            ])
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        writer.add(input)
        guard writer.startWriting() else { throw UsageError("the asset writer did not start: \(String(describing: writer.error))") }
        writer.startSession(atSourceTime: .zero)
        let cpuBefore = cpuSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        for (index, frame) in frames.enumerated() {
            while !input.isReadyForMoreMediaData { usleep(200) }
            adaptor.append(frame, withPresentationTime: CMTime(value: Int64(index), timescale: 30))
        }
        let done = DispatchSemaphore(value: 0)
        writer.finishWriting { done.signal() }
        done.wait()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard writer.status == .completed else { throw UsageError("the asset writer failed: \(String(describing: writer.error))") }
        return figures(frames: frames.count, wall: wall, cpu: cpuSeconds() - cpuBefore)
    }

    /// AVAssetReader decoding every frame of `url` to 420v pixel buffers.
    static func read(_ url: URL) throws -> [String: Any] {
        let asset = AVURLAsset(url: url)
        guard let track = asset.tracks(withMediaType: .video).first else { throw UsageError("no video track in \(url.path)") }
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        reader.add(output)
        let cpuBefore = cpuSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        reader.startReading()
        var frames = 0
        while output.copyNextSampleBuffer() != nil { frames += 1 }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return figures(frames: frames, wall: wall, cpu: cpuSeconds() - cpuBefore)
    }

    /// The frames as YUV4MPEG2 4:2:0 (NV12's chroma split into planes).
    static func writeY4M(_ frames: [CVPixelBuffer], to url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        handle.write(Data("YUV4MPEG2 W\(width) H\(height) F30:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n".utf8))
        for frame in frames {
            CVPixelBufferLockBaseAddress(frame, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(frame, .readOnly) }
            var data = Data("FRAME\n".utf8)
            let luma = CVPixelBufferGetBaseAddressOfPlane(frame, 0)!.assumingMemoryBound(to: UInt8.self)
            let lumaStride = CVPixelBufferGetBytesPerRowOfPlane(frame, 0)
            for y in 0..<height { data.append(luma + y * lumaStride, count: width) }
            let chroma = CVPixelBufferGetBaseAddressOfPlane(frame, 1)!.assumingMemoryBound(to: UInt8.self)
            let chromaStride = CVPixelBufferGetBytesPerRowOfPlane(frame, 1)
            for offset in 0..<2 {
                var plane = [UInt8](repeating: 0, count: width / 2 * height / 2)
                for y in 0..<height / 2 {
                    for x in 0..<width / 2 { plane[y * width / 2 + x] = chroma[y * chromaStride + 2 * x + offset] }
                }
                data.append(contentsOf: plane)
            }
            handle.write(data)
        }
    }
}

/// Copies of the first frames a session delivers (virtual time, so every frame).
private final class FrameGrab: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let device: AVCaptureDevice
    let width: Int, height: Int, count: Int
    private let lock = NSLock()
    private var frames: [CVPixelBuffer] = []
    private let done = DispatchSemaphore(value: 0)

    init(device: AVCaptureDevice, width: Int, height: Int, count: Int) {
        self.device = device
        self.width = width
        self.height = height
        self.count = count
    }

    func grab() throws -> [CVPixelBuffer] {
        device.simulation?.pacing = .virtual
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .hd1920x1080
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange]
        output.alwaysDiscardsLateVideoFrames = false
        output.setSampleBufferDelegate(self, queue: DispatchQueue(label: "capture.bench.grab"))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
        done.wait()
        session.stopRunning()
        return lock.withLock { Array(frames.prefix(count)) }
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let image = sampleBuffer.imageBuffer else { return }
        var copy: CVPixelBuffer?
        CVPixelBufferCreate(nil, CVPixelBufferGetWidth(image), CVPixelBufferGetHeight(image), kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &copy)
        guard let copy else { return }
        CVPixelBufferLockBaseAddress(image, .readOnly)
        CVPixelBufferLockBaseAddress(copy, [])
        for plane in 0..<2 {
            let rows = CVPixelBufferGetHeightOfPlane(image, plane)
            let from = CVPixelBufferGetBaseAddressOfPlane(image, plane)!, to = CVPixelBufferGetBaseAddressOfPlane(copy, plane)!
            let fromStride = CVPixelBufferGetBytesPerRowOfPlane(image, plane), toStride = CVPixelBufferGetBytesPerRowOfPlane(copy, plane)
            for y in 0..<rows { memcpy(to + y * toStride, from + y * fromStride, min(fromStride, toStride)) }
        }
        CVPixelBufferUnlockBaseAddress(copy, [])
        CVPixelBufferUnlockBaseAddress(image, .readOnly)
        let total = lock.withLock { () -> Int in
            frames.append(copy)
            return frames.count
        }
        if total == count { done.signal() }
    }
}
