import CYUV
import Foundation
import MediaIO
import OpenCapture
import Synchronization
import V4L2Camera

/// `capture bench-v4l2`: what the V4L2 backend costs.
enum V4L2BenchCommand {
    static let spec = CommandSpec(
        name: "bench-v4l2", summary: "Measure V4L2 format conversions and, with a V4L2 camera, the per-frame cost",
        description: """
            Prints JSON with:
              conversions  microseconds per frame for each device format into each of ours
                           (V4L2FrameConverter), next to the same libyuv call made directly
              stream       with a V4L2 camera (the first one, or --device): per-frame cost from
                           DQBUF to the delegate call, median and p99 microseconds, for the
                           device's NV12 (handed out without a copy) and YUYV (converted)
            Build it in release mode for meaningful numbers: swift build -c release.
            """,
        options: [
            .value("--device", "ID", help: "The V4L2 camera to stream from (default: the first one)", validate: DeviceLookup.checkID),
            .integer("--frames", in: 10...100_000, help: "Conversions per measurement and frames per stream (default 200)"),
            SizeValue.option(
                "--size", sides: 16...largestSide, even: true,
                help: "Conversion size (default 1920x1080); even sides in 16...\(largestSide), as 4:2:0 and YUYV need"),
        ],
        run: run)

    /// The largest side `--size` takes. The conversions hold a handful of frames in every
    /// format at once: 4096x4096 peaks near 300 MB (65536x65536 once asked for 17 GB), and
    /// V4L2 cameras' formats stay within 4096.
    static let largestSide = 4096

    static func run(_ args: Arguments) throws -> Int32 {
        let frames = args.integer("--frames") ?? 200
        let (width, height) = args.size("--size") ?? (1920, 1080)
        var report: [String: Any] = ["conversions": conversions(width: width, height: height, count: frames)]
        #if DEBUG
            report["warning"] = "debug build: run 'swift build -c release' and use .build/release/capture for real figures"
        #endif
        let cameras = DeviceLookup.all.filter { $0.deviceType == .external }
        let chosen = try args.value("--device").map { try DeviceLookup.device($0) } ?? cameras.first
        if let device = chosen {
            report["stream"] = try stream(device, frames: frames)
        } else {
            report["stream"] = "no V4L2 camera attached"
        }
        let data = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: data, as: UTF8.self))
        return 0
    }

    // MARK: Conversions

    static func conversions(width: Int, height: Int, count: Int) -> [[String: Any]] {
        var rows: [[String: Any]] = []
        for code in [V4L2PixelCode.yuyv, .uyvy, .nv12, .yu12, .rgb24, .bgr24, .mjpeg] {
            let (source, stride) = sourceFrame(code, width: width, height: height)
            for output in [PixelFormat.yuv420BiPlanarVideoRange, .yuv420PlanarVideoRange, .yuv420BiPlanarFullRange, .bgra] {
                let converter = V4L2FrameConverter(source: code, width: width, height: height, sourceStride: stride)
                let buffer = CVBuffer(format: output, width: width, height: height)
                let ours = time(count) {
                    source.withUnsafeBytes { _ = converter.convert($0.baseAddress!, bytes: $0.count, into: buffer) }
                }
                var row: [String: Any] = ["from": code.name, "to": output.fourCC, "us_per_frame": ours]
                if let direct = libyuvDirect(code, output, source, stride, buffer, width, height) {
                    row["libyuv_direct_us_per_frame"] = time(count, direct)
                }
                rows.append(row)
            }
        }
        return rows
    }

    /// A frame of the format, the colour bars' worth of variety so no codec shortcut applies.
    static func sourceFrame(_ code: V4L2PixelCode, width: Int, height: Int) -> ([UInt8], Int) {
        let bgra = CVBuffer(format: .bgra, width: width, height: height)
        for y in 0..<height {
            let row = bgra.planeAddress(0).assumingMemoryBound(to: UInt8.self) + y * bgra.bytesPerRow(0)
            for x in 0..<width {
                let bar = 8 * x / width
                row[4 * x] = bar & 4 != 0 ? 191 : 0
                row[4 * x + 1] = bar & 2 == 0 ? 191 : 0
                row[4 * x + 2] = bar & 1 == 0 ? 191 : 0
                row[4 * x + 3] = 255
            }
        }
        let src = bgra.planeAddress(0).assumingMemoryBound(to: UInt8.self)
        let s = Int32(bgra.bytesPerRow(0)), w = Int32(width), h = Int32(height)
        switch code {
        case .yuyv, .uyvy:
            var out = [UInt8](repeating: 0, count: width * 2 * height)
            _ = out.withUnsafeMutableBufferPointer {
                code == .yuyv ? ARGBToYUY2(src, s, $0.baseAddress, w * 2, w, h) : ARGBToUYVY(src, s, $0.baseAddress, w * 2, w, h)
            }
            return (out, width * 2)
        case .nv12, .yu12:
            let target = CVBuffer(format: code == .nv12 ? .yuv420BiPlanarVideoRange : .yuv420PlanarVideoRange, width: width, height: height)
            var out: [UInt8] = []
            for plane in target.planes.indices {
                let rowBytes = code == .nv12 && plane == 1 ? width : (plane == 0 ? width : width / 2)
                if plane == 0 {
                    _ = code == .nv12
                        ? ARGBToNV12(src, s, target.planeAddress(0).assumingMemoryBound(to: UInt8.self), Int32(target.bytesPerRow(0)),
                                     target.planeAddress(1).assumingMemoryBound(to: UInt8.self), Int32(target.bytesPerRow(1)), w, h)
                        : ARGBToI420(src, s, target.planeAddress(0).assumingMemoryBound(to: UInt8.self), Int32(target.bytesPerRow(0)),
                                     target.planeAddress(1).assumingMemoryBound(to: UInt8.self), Int32(target.bytesPerRow(1)),
                                     target.planeAddress(2).assumingMemoryBound(to: UInt8.self), Int32(target.bytesPerRow(2)), w, h)
                }
                for row in 0..<target.planes[plane].height {
                    let start = target.planeAddress(plane).assumingMemoryBound(to: UInt8.self) + row * target.bytesPerRow(plane)
                    out += UnsafeBufferPointer(start: start, count: rowBytes)
                }
            }
            return (out, width)
        case .rgb24, .bgr24:
            var out = [UInt8](repeating: 0, count: width * 3 * height)
            _ = out.withUnsafeMutableBufferPointer {
                code == .rgb24 ? ARGBToRAW(src, s, $0.baseAddress, w * 3, w, h) : ARGBToRGB24(src, s, $0.baseAddress, w * 3, w, h)
            }
            return (out, width * 3)
        case .mjpeg:
            return ((try? [UInt8](JPEGEncoder.encode(bgra, quality: 90, exif: nil))) ?? [], 0)
        }
    }

    /// The one libyuv call that does the same job, where a conversion is one call.
    static func libyuvDirect(
        _ code: V4L2PixelCode, _ output: PixelFormat, _ source: [UInt8], _ stride: Int, _ buffer: CVBuffer, _ width: Int, _ height: Int
    ) -> (() -> Void)? {
        let w = Int32(width), h = Int32(height), s = Int32(stride)
        let y = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self), ys = Int32(buffer.bytesPerRow(0))
        switch (code, output) {
        case (.yuyv, .yuv420BiPlanarVideoRange):
            let uv = buffer.planeAddress(1).assumingMemoryBound(to: UInt8.self), uvs = Int32(buffer.bytesPerRow(1))
            return { source.withUnsafeBufferPointer { _ = YUY2ToNV12($0.baseAddress, s, y, ys, uv, uvs, w, h) } }
        case (.uyvy, .yuv420BiPlanarVideoRange):
            let uv = buffer.planeAddress(1).assumingMemoryBound(to: UInt8.self), uvs = Int32(buffer.bytesPerRow(1))
            return { source.withUnsafeBufferPointer { _ = UYVYToNV12($0.baseAddress, s, y, ys, uv, uvs, w, h) } }
        case (.yuyv, .bgra):
            return { source.withUnsafeBufferPointer { _ = YUY2ToARGB($0.baseAddress, s, y, ys, w, h) } }
        case (.rgb24, .bgra):
            return { source.withUnsafeBufferPointer { _ = RAWToARGB($0.baseAddress, s, y, ys, w, h) } }
        case (.yu12, .yuv420BiPlanarVideoRange):
            let uv = buffer.planeAddress(1).assumingMemoryBound(to: UInt8.self), uvs = Int32(buffer.bytesPerRow(1))
            return {
                source.withUnsafeBufferPointer {
                    let u = $0.baseAddress! + stride * height
                    _ = I420ToNV12($0.baseAddress, s, u, s / 2, u + stride / 2 * height / 2, s / 2, y, ys, uv, uvs, w, h)
                }
            }
        default:
            return nil
        }
    }

    /// Median microseconds of `count` runs of `body`.
    static func time(_ count: Int, _ body: () -> Void) -> Double {
        body()  // warm caches and lazily made scratch buffers
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        samples.sort()
        return (samples[samples.count / 2] * 10).rounded() / 10
    }

    // MARK: Streaming

    static func stream(_ device: AVCaptureDevice, frames: Int) throws -> [[String: Any]] {
        guard let camera = device.backend as? V4L2Camera else { throw UsageError("\(device.uniqueID) is not a V4L2 camera") }
        var rows: [[String: Any]] = []
        for code in [V4L2PixelCode.nv12, .yuyv] {
            // The largest size of the format that runs at 25 fps or more.
            guard let index = camera.modes.indices.filter({ camera.modes[$0].code == code && (camera.modes[$0].frameRateRanges.first?.upperBound ?? 0) >= 25 })
                .max(by: { camera.modes[$0].width * camera.modes[$0].height < camera.modes[$1].width * camera.modes[$1].height })
            else { continue }
            let probe = DequeueProbe()
            let session = AVCaptureSession()
            let output = AVCaptureVideoDataOutput()
            session.beginConfiguration()
            session.addInput(try AVCaptureDeviceInput(device: device))
            output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange]
            output.setSampleBufferDelegate(probe, queue: probe.queue)
            session.addOutput(output)
            try device.lockForConfiguration()
            device.activeFormat = device.formats[index]
            device.unlockForConfiguration()
            session.commitConfiguration()
            session.startRunning()
            let deadline = Date().addingTimeInterval(Double(frames) / 10 + 10)
            while probe.count < frames && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            session.stopRunning()
            let samples = probe.samples.sorted()
            guard !samples.isEmpty else { continue }
            let mode = camera.modes[index]
            rows.append([
                "format": "\(code.name) \(mode.width)x\(mode.height) -> 420v", "frames": samples.count,
                "zero_copy": probe.wrapped, "dequeue_to_delegate_us_median": samples[samples.count / 2],
                "dequeue_to_delegate_us_p99": samples[min(samples.count - 1, samples.count * 99 / 100)],
            ])
        }
        return rows
    }
}

/// Records, per frame, microseconds from the backend's DQBUF to the delegate call.
private final class DequeueProbe: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "bench.v4l2")
    private let state = Mutex<(samples: [Double], wrapped: Bool)>(([], false))

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let now = CMClockGetTime(CMClockGetHostTimeClock()).value
        guard let dequeued = sampleBuffer.metadata?.dequeueHostTime, dequeued > 0 else { return }
        let wrapped = sampleBuffer.imageBuffer?.isWrapping ?? false
        state.withLock {
            $0.samples.append((Double(now - dequeued) / 100).rounded() / 10)
            $0.wrapped = wrapped
        }
    }

    var count: Int { state.withLock { $0.samples.count } }
    var samples: [Double] { state.withLock { $0.samples } }
    var wrapped: Bool { state.withLock { $0.wrapped } }
}
