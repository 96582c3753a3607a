import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// What the asset writer's H.264 keeps of the pixels, and how it ends on a full disk.
@Suite("Asset writer quality and full disk")
struct AssetWriterQualityTests {
    typealias Fixture = AssetWriterFixture

    /// A camera-like picture: a smooth diagonal luma ramp that moves 2 pixels a frame, with
    /// a soft vertical bar, neutral chroma.
    /// Writes `count` painted 352x288 '420v' frames at 30 fps as H.264 through `writer`
    /// (not yet started) and finishes it; returns each frame's luma as painted.
    static func writePaintedFrames(_ count: Int, with writer: AVAssetWriter) async throws -> [[UInt8]] {
        let input = AVAssetWriterInput(
            mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 352, AVVideoHeightKey: 288])
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        var originals: [[UInt8]] = []
        for index in 0..<count {
            // A fresh buffer per frame: the writer reads pixels on its own queue.
            var made: CVPixelBuffer?
            CVPixelBufferCreate(nil, 352, 288, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made)
            originals.append(paint(made!, frame: index))
            try await input.waitUntilReady()
            input.append(Fixture.videoSample(made!, at: CMTime(value: Int64(index), timescale: 30)))
        }
        await writer.finishWriting()
        return originals
    }

    static func paint(_ buffer: CVPixelBuffer, frame: Int) -> [UInt8] {
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        var luma = [UInt8](repeating: 0, count: width * height)
        let y0 = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
        for y in 0..<height {
            for x in 0..<width {
                let ramp = Double((x + y + 2 * frame) % 400) / 400
                let bar = exp(-pow(Double(x - (width / 2 + frame)) / 20, 2))
                let value = UInt8(40 + 150 * ramp + 40 * bar)
                y0[y * stride + x] = value
                luma[y * width + x] = value
            }
        }
        let chroma = CVPixelBufferGetBaseAddressOfPlane(buffer, 1)!.assumingMemoryBound(to: UInt8.self)
        let chromaStride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 1)
        for y in 0..<(height / 2) { (chroma + y * chromaStride).update(repeating: 128, count: width) }
        return luma
    }

    @Test("default settings (constant quality): luma PSNR of every decoded frame ≥ 40 dB")
    func psnr() async throws {
        let url = Fixture.temporaryURL("mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let originals = try await Self.writePaintedFrames(10, with: writer)
        #expect(writer.status == .completed)
        let decoded = try Fixture.run("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        // The decoder's own planes, unconverted (a conversion to grey would expand the range).
        let size = 352 * 288, frameBytes = size * 3 / 2
        try #require(decoded.count == frameBytes * 10)
        for (index, original) in originals.enumerated() {
            let frame = decoded[(index * frameBytes)..<(index * frameBytes + size)]
            let squared = zip(frame, original).reduce(0.0) { sum, pair in
                let difference = Double(pair.0) - Double(pair.1)
                return sum + difference * difference
            }
            let psnr = 10 * log10(255 * 255 / max(squared / Double(size), 1e-9))
            #expect(psnr >= 40, "frame \(index): \(psnr) dB")
        }
    }

    @Test("a full disk ends writing with .failed and AVError.diskFull", .enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
    func diskFull() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oc-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let mount = try ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=48k", "tmpfs", folder.path])
        try #require(mount.status == 0)
        defer { _ = try? ChildProcess.run("/bin/umount", [folder.path]) }
        let writer = try AVAssetWriter(outputURL: folder.appendingPathComponent("full.mp4"), fileType: .mp4)
        let input = AVAssetWriterInput(
            mediaType: .video,
            outputSettings: [
                AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 352, AVVideoHeightKey: 288,
                AVVideoCompressionPropertiesKey: [AVVideoAverageBitRateKey: 8_000_000, AVVideoMaxKeyFrameIntervalKey: 1],
            ])
        writer.add(input)
        writer.movieFragmentInterval = CMTime(value: 1, timescale: 30)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        var index = 0
        // Noise-like frames at 8 Mbit/s fill 48 KB within a few frames.
        while writer.status == .writing && index < 300 {
            var made: CVPixelBuffer?
            CVPixelBufferCreate(nil, 352, 288, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made)
            CVPixelBufferLockBaseAddress(made!, [])
            let base = CVPixelBufferGetBaseAddressOfPlane(made!, 0)!.assumingMemoryBound(to: UInt8.self)
            var seed = UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
            for offset in 0..<(CVPixelBufferGetBytesPerRowOfPlane(made!, 0) * 288) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1
                base[offset] = UInt8(truncatingIfNeeded: seed >> 56)
            }
            CVPixelBufferUnlockBaseAddress(made!, [])
            while writer.status == .writing && !input.isReadyForMoreMediaData { await Task.yield() }
            _ = input.append(Fixture.videoSample(made!, at: CMTime(value: Int64(index), timescale: 30)))
            index += 1
        }
        if writer.status == .writing { await writer.finishWriting() }
        #expect(writer.status == .failed)
        #expect((writer.error as? AVError)?.code == .diskFull)
    }
}
