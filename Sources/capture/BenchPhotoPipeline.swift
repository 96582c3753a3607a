import Foundation
import MediaIO
import OpenCapture

/// `capture bench --photo-only`: the photo pipeline's figures, next to its peers.
///
/// - encode: one 4032x3024 still (full-range 4:2:0, as photos are rendered) compressed by
///   our JPEG encoder (libjpeg-turbo, quality 92) and HEIC encoder (libheif + x265
///   ultrafast, quality 92), and the same pixels by `cjpeg -quality 92` (from a PPM) and
///   `heif-enc -q 92 -p preset=ultrafast` (from a Y4M); peers' times include their start
///   and reading the file.
/// - shutter_to_file_ms: capturePhoto to the JPEG in `didFinishProcessingPhoto`, per
///   quality prioritization (median of 3, 4032x3024, virtual time).
/// - zero_shutter_lag_ms: photo timestamp − call time, with zero shutter lag on and off
///   (10 photos each, real time, 1920x1080 at 30 fps, 352x288 photos).
/// - memory_bytes: the zero-shutter-lag history and the Live Photo ring at the photo preset.
enum BenchPhotoPipeline {
    static func report(device: AVCaptureDevice) throws -> [String: Any] {
        var report: [String: Any] = [:]
        report["encode_4032x3024"] = try encode(device: device)
        report["shutter_to_file_ms"] = try shutterToFile(device: device)
        report["zero_shutter_lag_ms"] = try zeroShutterLag(device: device)
        report["memory_bytes"] = try memory(device: device)
        return report
    }

    // MARK: Encoders against their peers

    private static func encode(device: AVCaptureDevice) throws -> [String: Any] {
        let still = try uncompressedStill(device: device)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oc-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ppm = folder.appendingPathComponent("still.ppm"), y4m = folder.appendingPathComponent("still.y4m")
        try writePPM(still, to: ppm)
        try writeY4M(still, to: y4m)
        func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
            var times: [Double] = []
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                try body()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            return (times.sorted()[times.count / 2] * 10).rounded() / 10
        }
        var jpegBytes = 0, heicBytes = 0
        let jpeg = try median(5) { jpegBytes = try JPEGEncoder.encode(still, quality: 92, exif: nil).count }
        let heic = try median(1) { heicBytes = try HEIFEncoder.encode(still, quality: 92, exif: nil, effort: .fastest).count }
        let cjpeg = (0..<5).map { _ in Peer.run("cjpeg", ["-quality", "92", "-outfile", "/dev/null", ppm.path], frames: 1) }
        let heifEnc = Peer.run("heif-enc", ["-q", "92", "-p", "preset=ultrafast", "-o", folder.appendingPathComponent("peer.heic").path, y4m.path], frames: 1)
        let heifBytes = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("peer.heic").path)[.size] as? Int) ?? nil
        func ms(_ peers: [Peer]) -> Any {
            let times = peers.compactMap(\.seconds).map { $0 * 1000 }.sorted()
            guard !times.isEmpty else { return peers.first?.error ?? "failed" }
            return (times[times.count / 2] * 10).rounded() / 10
        }
        var result: [String: Any] = [
            "opencapture_jpeg_ms": jpeg, "opencapture_jpeg_bytes": jpegBytes, "cjpeg_ms": ms(cjpeg),
            "opencapture_heic_ms": heic, "opencapture_heic_bytes": heicBytes, "heif_enc_ms": ms([heifEnc]),
        ]
        if let heifBytes { result["heif_enc_bytes"] = heifBytes }
        if let peer = ms(cjpeg) as? Double { result["jpeg_ratio_vs_cjpeg"] = (peer / jpeg * 100).rounded() / 100 }
        if let peer = ms([heifEnc]) as? Double { result["heic_ratio_vs_heif_enc"] = (peer / heic * 100).rounded() / 100 }
        return result
    }

    /// A 4032x3024 full-range 4:2:0 still from the simulated camera.
    private static func uncompressedStill(device: AVCaptureDevice) throws -> CVPixelBuffer {
        try withSession(device: device, preset: .photo, pacing: .virtual) { output in
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange])
            let delegate = Waiter()
            output.capturePhoto(with: settings, delegate: delegate)
            delegate.done.wait()
            guard let buffer = delegate.photo?.pixelBuffer else { throw CommandFailure(message: "the camera returned no still") }
            return buffer
        }
    }

    /// The still as 8-bit RGB (BT.709 full range decoded), cjpeg's input.
    private static func writePPM(_ buffer: CVPixelBuffer, to url: URL) throws {
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let luma = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!.assumingMemoryBound(to: UInt8.self)
        let chroma = CVPixelBufferGetBaseAddressOfPlane(buffer, 1)!.assumingMemoryBound(to: UInt8.self)
        let lumaRow = CVPixelBufferGetBytesPerRowOfPlane(buffer, 0), chromaRow = CVPixelBufferGetBytesPerRowOfPlane(buffer, 1)
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let l = Double(luma[y * lumaRow + x])
                let cb = Double(chroma[(y / 2) * chromaRow + (x / 2) * 2]) - 128, cr = Double(chroma[(y / 2) * chromaRow + (x / 2) * 2 + 1]) - 128
                let index = (y * width + x) * 3
                rgb[index] = UInt8(clamping: Int((l + 1.5748 * cr).rounded()))
                rgb[index + 1] = UInt8(clamping: Int((l - 0.1873 * cb - 0.4681 * cr).rounded()))
                rgb[index + 2] = UInt8(clamping: Int((l + 1.8556 * cb).rounded()))
            }
        }
        data.append(contentsOf: rgb)
        try data.write(to: url)
    }

    /// The still as one Y4M frame of planar 4:2:0, heif-enc's input.
    private static func writeY4M(_ buffer: CVPixelBuffer, to url: URL) throws {
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let luma = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!.assumingMemoryBound(to: UInt8.self)
        let chroma = CVPixelBufferGetBaseAddressOfPlane(buffer, 1)!.assumingMemoryBound(to: UInt8.self)
        let lumaRow = CVPixelBufferGetBytesPerRowOfPlane(buffer, 0), chromaRow = CVPixelBufferGetBytesPerRowOfPlane(buffer, 1)
        var data = Data("YUV4MPEG2 W\(width) H\(height) F30:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL\nFRAME\n".utf8)
        for y in 0..<height { data.append(luma + y * lumaRow, count: width) }
        var u = [UInt8](repeating: 0, count: width / 2 * height / 2), v = u
        for y in 0..<height / 2 {
            for x in 0..<width / 2 {
                u[y * width / 2 + x] = chroma[y * chromaRow + 2 * x]
                v[y * width / 2 + x] = chroma[y * chromaRow + 2 * x + 1]
            }
        }
        data.append(contentsOf: u)
        data.append(contentsOf: v)
        try data.write(to: url)
    }

    // MARK: Latency

    private static func shutterToFile(device: AVCaptureDevice) throws -> [String: Any] {
        try withSession(device: device, preset: .photo, pacing: .virtual) { output in
            output.maxPhotoQualityPrioritization = .quality
            var result: [String: Any] = [:]
            for (name, quality) in [("speed", AVCapturePhotoOutput.QualityPrioritization.speed), ("balanced", .balanced), ("quality", .quality)] {
                var times: [Double] = []
                for _ in 0..<3 {
                    let settings = AVCapturePhotoSettings()
                    settings.photoQualityPrioritization = quality
                    let delegate = Waiter()
                    let start = DispatchTime.now().uptimeNanoseconds
                    output.capturePhoto(with: settings, delegate: delegate)
                    delegate.processed.wait()
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    delegate.done.wait()
                }
                result[name] = (times.sorted()[1] * 10).rounded() / 10
            }
            return result
        }
    }

    private static func zeroShutterLag(device: AVCaptureDevice) throws -> [String: Any] {
        try withSession(device: device, preset: .hd1920x1080, pacing: .realTime) { output in
            var result: [String: Any] = [:]
            for enabled in [true, false] {
                output.isZeroShutterLagEnabled = enabled
                Thread.sleep(forTimeInterval: 0.3)  // the history fills again
                var lags: [Double] = []
                for index in 0..<10 {
                    // Calls land anywhere in a frame: spread them over one frame time.
                    Thread.sleep(forTimeInterval: 0.05 + Double(index) * 0.0033)
                    let settings = AVCapturePhotoSettings()
                    settings.maxPhotoDimensions = CMVideoDimensions(width: 352, height: 198)
                    let delegate = Waiter()
                    let called = CMClockGetTime(CMClockGetHostTimeClock())
                    output.capturePhoto(with: settings, delegate: delegate)
                    delegate.done.wait()
                    if let time = delegate.photo?.timestamp { lags.append((time - called).seconds * 1000) }
                }
                lags.sort()
                guard !lags.isEmpty else { continue }
                result[enabled ? "on" : "off"] = [
                    "median": (lags[lags.count / 2] * 10).rounded() / 10, "min": (lags[0] * 10).rounded() / 10,
                    "max": (lags[lags.count - 1] * 10).rounded() / 10,
                ]
            }
            return result
        }
    }

    private static func memory(device: AVCaptureDevice) throws -> [String: Any] {
        try withSession(device: device, preset: .photo, pacing: .virtual, live: true) { output in
            // 1.5 s of frames at 30 fps fill the ring.
            var ring = 0
            for _ in 0..<100 where ring < 46 * 1440 * 1080 * 3 / 2 {
                Thread.sleep(forTimeInterval: 0.1)
                ring = output.livePhotoRingBytes
            }
            let history = output.zeroShutterLagHistoryBytes
            output.isLivePhotoCaptureEnabled = false
            output.isZeroShutterLagEnabled = false
            Thread.sleep(forTimeInterval: 0.2)
            return [
                "live_photo_ring_1440x1080": ring, "zero_shutter_lag_history": history,
                "after_off": output.livePhotoRingBytes + output.zeroShutterLagHistoryBytes,
            ]
        }
    }

    // MARK: Sessions

    private static func withSession<Result>(
        device: AVCaptureDevice, preset: AVCaptureSession.Preset, pacing: AVCaptureDevice.Simulation.Pacing, live: Bool = false,
        body: (AVCapturePhotoOutput) throws -> Result
    ) throws -> Result {
        device.simulation?.pacing = pacing
        defer { device.simulation?.pacing = .realTime }
        let session = AVCaptureSession()
        session.sessionPreset = preset
        let input = try AVCaptureDeviceInput(device: device)
        session.addInput(input)
        let output = AVCapturePhotoOutput()
        session.addOutput(output)
        if live { output.isLivePhotoCaptureEnabled = true }
        session.startRunning()
        defer {
            session.stopRunning()
            session.removeInput(input)
            session.removeOutput(output)
        }
        Thread.sleep(forTimeInterval: 0.2)
        return try body(output)
    }

    final class Waiter: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let processed = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        var photo: AVCapturePhoto?
        func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
            self.photo = photo
            processed.signal()
        }
        func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
            done.signal()
        }
    }
}
