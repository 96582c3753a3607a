import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// What the tests keep of a frame: its metadata and a checksum of its pixels.
private struct Capture: Sendable {
    var metadata: FrameMetadata
    var checksum: UInt64

    init(_ buffer: CVPixelBuffer, _ metadata: FrameMetadata) {
        self.metadata = metadata
        checksum = Self.checksum(buffer)
    }

    /// FNV-1a over the visible bytes of every plane.
    private static func checksum(_ buffer: CVPixelBuffer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        let geometry = buffer.format.planeGeometry(width: buffer.width, height: buffer.height)
        for (index, plane) in geometry.enumerated() {
            let base = buffer.planeAddress(index).assumingMemoryBound(to: UInt8.self)
            for row in 0..<plane.height {
                let line = base + row * buffer.bytesPerRow(index)
                for byte in 0..<(plane.width * plane.bytesPerPixel) {
                    hash = (hash ^ UInt64(line[byte])) &* 0x100_0000_01B3
                }
            }
        }
        return hash
    }
}

/// A sink recording captures until `limit` captures or drops arrived (in virtual time the
/// camera then stops asking for frames).
private func captureSink(limit: Int?, holdsBuffers: Bool = false) -> RecordingSink<Capture> {
    RecordingSink(limit: limit, holdsBuffers: holdsBuffers, extract: Capture.init)
}

private func time(_ value: Int64, _ scale: Int32) -> CMTime {
    CMTime(value: value, timescale: scale, flags: .valid, epoch: 0)
}

/// A virtual-time camera from the catalog.
private func camera(_ index: Int = 0, seed: UInt64 = 1, luminance: Float? = nil) -> SimulatedCamera {
    let camera = SimulatedCameraCatalog.builtInCameras()[index]
    camera.pacing = .virtual
    camera.seed = seed
    if let luminance { camera.sceneLuminanceScale = luminance }
    return camera
}

private func configuration(
    _ camera: SimulatedCamera, preset: String = "AVCaptureSessionPreset352x288", fps: Int32 = 30,
    slowestFPS: Int32? = nil, pixelFormat: PixelFormat = .yuv420BiPlanarVideoRange
) -> StreamConfiguration {
    StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats[preset]!, minFrameDuration: time(1, fps),
        maxFrameDuration: time(1, slowestFPS ?? fps), pixelFormat: pixelFormat)
}

/// Streams `frames` frames in virtual time and returns the sink.
private func record(
    _ camera: SimulatedCamera, _ configuration: StreamConfiguration, frames: Int
) throws -> RecordingSink<Capture> {
    let sink = captureSink(limit: frames)
    try camera.start(configuration, sink: sink)
    defer { camera.stop() }
    try sink.wait()
    return sink
}

@Suite("Simulated camera")
struct SimulatedCameraTests {
    @Test func catalogListsFourCamerasInOrder() {
        let cameras = SimulatedCameraCatalog.builtInCameras()
        #expect(cameras.map(\.descriptor.uniqueID) == ["sim:back-wide", "sim:back-ultrawide", "sim:back-tele", "sim:front-wide"])
        #expect(
            cameras.map(\.descriptor.deviceType) == [
                "AVCaptureDeviceTypeBuiltInWideAngleCamera", "AVCaptureDeviceTypeBuiltInUltraWideCamera",
                "AVCaptureDeviceTypeBuiltInTelephotoCamera", "AVCaptureDeviceTypeBuiltInWideAngleCamera",
            ])
        #expect(cameras.map(\.descriptor.position) == [1, 1, 1, 2])
        #expect(
            cameras.map(\.descriptor.localizedName) == [
                "Back Camera", "Back Ultra Wide Camera", "Back Telephoto Camera", "Front Camera",
            ])
        for camera in cameras {
            let d = camera.descriptor
            #expect(d.manufacturer == "OpenCapture")
            let high = d.presetFormats["AVCaptureSessionPresetHigh"]
            #expect(high == d.defaultFormatIndex)
            #expect(d.formats[d.defaultFormatIndex].width == 1920 && d.formats[d.defaultFormatIndex].height == 1080)
            #expect(!d.formats[d.defaultFormatIndex].isBinned)
            let photo = d.formats[d.presetFormats["AVCaptureSessionPresetPhoto"]!]
            #expect(photo.width == 4032 && photo.height == 3024 && photo.maxFrameRate == 30)
            #expect(d.formats[d.presetFormats["AVCaptureSessionPresetMedium"]!].width == 480)
            #expect(d.formats[d.presetFormats["AVCaptureSessionPresetLow"]!].width == 192)
            #expect(d.formats[d.presetFormats["AVCaptureSessionPresetiFrame960x540"]!].width == 960)
            for format in d.formats {
                #expect(format.pixelFormat == (format.colorSpaces.contains(2) ? .yuv420TenBitBiPlanarVideoRange : .yuv420BiPlanarVideoRange))
                #expect(format.maxExposureDuration <= 1 / format.frameRateRanges[0].lowerBound)
                #expect(format.minISO < format.maxISO)
            }
        }
        #expect(cameras[0].descriptor.formats.contains { $0.isBinned && $0.maxFrameRate == 240 })
        #expect(cameras[3].descriptor.presetFormats["AVCaptureSessionPreset3840x2160"] == nil)
        #expect(cameras[0].descriptor.presetFormats["AVCaptureSessionPreset3840x2160"] != nil)
    }

    @Test func framesArriveInOrderWithExactTimestamps() throws {
        let camera = camera()
        let sink = try record(camera, configuration(camera), frames: 20)
        let captures = sink.frames
        #expect(captures.count == 20)
        #expect(captures.map(\.metadata.sequence) == Array(0..<20))
        let first = captures[0].metadata.presentationTime
        #expect(first.timescale == 1_000_000_000)
        for (n, capture) in captures.enumerated() {
            let pts = capture.metadata.presentationTime
            #expect(pts.timescale == 1_000_000_000 && pts.flags.contains(.valid))
            // n frames of exactly 1/30 s, rounded to the nanosecond only once.
            let expected = (Int64(n) * 1_000_000_000 + 15) / 30
            #expect(pts.value - first.value == expected)
            #expect(capture.metadata.frameDuration == time(1, 30))
            #expect(capture.metadata.width == 352 && capture.metadata.height == 288)
        }
    }

    @Test func sameSeedGivesSamePixelsAndOtherSeedsDiffer() throws {
        let a = try record(camera(seed: 7), configuration(camera()), frames: 6).frames.map(\.checksum)
        let b = try record(camera(seed: 7), configuration(camera()), frames: 6).frames.map(\.checksum)
        let c = try record(camera(seed: 8), configuration(camera()), frames: 6).frames.map(\.checksum)
        #expect(a.count == 6)
        #expect(a == b)
        #expect(zip(a, c).allSatisfy { $0 != $1 })
        // The ball moves and the noise changes, so consecutive frames differ.
        #expect(Set(a).count == a.count)
    }

    @Test func markersShowOrientation() throws {
        let camera = camera()
        let sink = try record(camera, configuration(camera, pixelFormat: .bgra), frames: 15)
        let buffer = try #require(sink.lastBuffer)
        #expect(buffer.format == .bgra)
        func mean(x: ClosedRange<Double>, y: ClosedRange<Double>) -> SIMD3<Double> {
            let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
            var sum = SIMD3<Double>(), count = 0.0
            for row in Int(y.lowerBound * Double(buffer.height))..<Int(y.upperBound * Double(buffer.height)) {
                for column in Int(x.lowerBound * Double(buffer.width))..<Int(x.upperBound * Double(buffer.width)) {
                    let p = base + row * buffer.bytesPerRow(0) + 4 * column
                    sum += SIMD3(Double(p[2]), Double(p[1]), Double(p[0]))
                    count += 1
                }
            }
            return sum / count
        }
        let white = mean(x: 0.07...0.13, y: 0.07...0.13)
        let red = mean(x: 0.87...0.93, y: 0.07...0.13)
        #expect(white.min() > 240)
        #expect(red.x > 150 && red.y < 80 && red.z < 80)
        // The other corners hold neither.
        for corner in [mean(x: 0.87...0.93, y: 0.87...0.93), mean(x: 0.07...0.13, y: 0.87...0.93)] {
            #expect(corner.max() < 200)
            #expect(abs(corner.x - corner.y) < 30)
        }
    }

    @Test(arguments: [2 as Float, 200, 8000])
    func autoExposureConvergesToMidGrey(luminance: Float) throws {
        let camera = camera(luminance: luminance)
        let config = configuration(camera, slowestFPS: 15)
        let sink = try record(camera, config, frames: 45)
        let format = camera.descriptor.formats[config.formatIndex]
        for capture in sink.frames {
            let m = capture.metadata
            #expect(m.exposureDuration >= format.minExposureDuration && m.exposureDuration <= format.maxExposureDuration)
            #expect(m.iso >= format.minISO && m.iso <= format.maxISO)
            #expect(m.exposureDuration <= HostClock.seconds(m.frameDuration) + 1e-9)
            #expect(HostClock.seconds(m.frameDuration) <= 1.0 / 15 + 1e-9)
        }
        let settled = sink.frames.suffix(10).map(\.metadata)
        for m in settled {
            #expect(abs(m.exposureTargetOffset) < 0.15, "offset \(m.exposureTargetOffset) at \(luminance) cd/m²")
            #expect(m.meanLuma > 0.38 && m.meanLuma < 0.52, "mean luma \(m.meanLuma) at \(luminance) cd/m²")
        }
        // No hunting once settled: exposure changes by less than 2 % between frames.
        let totals = settled.map { $0.exposureDuration * Double($0.iso) }
        for (a, b) in zip(totals, totals.dropFirst()) { #expect(abs(b / a - 1) < 0.02) }
        if luminance <= 2 {
            // Dim: exposure time at the frame limit, ISO raised.
            #expect(settled.last!.iso > format.minISO)
        }
        if luminance >= 8000 {
            #expect(settled.last!.iso == format.minISO)
            #expect(settled.last!.exposureDuration < 1.0 / 1000)
        }
    }

    @Test func exhaustedPoolReportsOutOfBuffers() throws {
        let camera = camera()
        camera.maximumBufferCount = 3
        let sink = captureSink(limit: 8, holdsBuffers: true)
        try camera.start(configuration(camera), sink: sink)
        defer { camera.stop() }
        try sink.wait()
        #expect(sink.frames.count == 3)
        #expect(sink.drops.count == 5)
        #expect(sink.drops.allSatisfy { $0.reason == .outOfBuffers && $0.count == 1 })
        #expect(sink.drops.map(\.metadata.sequence) == [3, 4, 5, 6, 7])
    }

    @Test func stopEndsSinkCalls() throws {
        let camera = camera()
        camera.pacing = .realTime
        let sink = captureSink(limit: nil)
        let clock = ContinuousClock()
        let started = clock.now, startedHost = HostClock.now()
        try camera.start(configuration(camera, preset: "AVCaptureSessionPresetLow", fps: 30), sink: sink)
        #expect(camera.isStreaming)
        try sink.waitForFrames(10)
        camera.stop()
        let streamed = (clock.now - started).seconds, stoppedHost = HostClock.now()
        #expect(!camera.isStreaming)
        let calls = sink.calls
        // Real time: about 30 frames per second (some may be skipped on a loaded
        // machine, never more), stamped on the host clock while the stream ran.
        let captures = sink.frames
        let frames = captures.count + sink.drops.reduce(0) { $0 + $1.count }
        #expect(frames <= Int(streamed * 30) + 2, "\(frames) frames in \(streamed) s")
        #expect(sink.drops.allSatisfy { $0.reason == .discontinuity })
        let stamps = captures.map(\.metadata.presentationTime.value)
        #expect(stamps.allSatisfy { $0 >= startedHost && $0 <= stoppedHost }, "\(stamps) outside \(startedHost)...\(stoppedHost)")
        // Streaming again works, and the stopped stream's sink hears nothing more meanwhile.
        camera.pacing = .virtual
        let again = try record(camera, configuration(camera), frames: 3)
        #expect(again.frames.map(\.metadata.sequence) == [0, 1, 2])
        #expect(sink.calls == calls)
    }

    @Test func updateAppliesAtAFrameBoundary() throws {
        let camera = camera()
        let initial = configuration(camera)
        var changed = initial
        changed.pixelFormat = .bgra
        changed.formatIndex = camera.descriptor.presetFormats["AVCaptureSessionPresetLow"]!
        changed.minFrameDuration = time(1, 15)
        changed.maxFrameDuration = time(1, 15)
        // Asked for while frame 2 is delivered (in virtual time the camera could otherwise
        // make all 12 frames before a busy test thread got to ask).
        let sink = RecordingSink(limit: 12, extract: Capture.init) { [changed] metadata in
            if metadata.sequence == 2 { camera.update(changed) }
        }
        try camera.start(initial, sink: sink)
        defer { camera.stop() }
        try sink.wait()
        let captures = sink.frames
        let widths = captures.map(\.metadata.width)
        #expect(widths.last == 192)
        // Once switched, it stays switched, and sequence numbers carry on.
        let switched = try #require(widths.firstIndex(of: 192))
        #expect(widths[switched...].allSatisfy { $0 == 192 })
        #expect(captures.map(\.metadata.sequence) == Array(0..<12))
        // The new frame duration starts with the new format, timestamps exact from there.
        let start = captures[switched].metadata.presentationTime.value
        for (k, capture) in captures[switched...].enumerated() {
            #expect(capture.metadata.frameDuration == time(1, 15))
            #expect(capture.metadata.presentationTime.value - start == (Int64(k) * 1_000_000_000 + 7) / 15)
        }
        if switched > 0 {
            let before = captures[switched - 1].metadata
            // One 1/30 s frame, rounded to the nanosecond either way depending on the frame.
            #expect([33_333_333, 33_333_334].contains(start - before.presentationTime.value))
        }
    }

    @Test func zoomCropsTheCentre() throws {
        let camera = camera()
        camera.zoomFactor = 2
        let sink = try record(camera, configuration(camera, pixelFormat: .bgra), frames: 12)
        #expect(sink.frames.allSatisfy { $0.metadata.zoomFactor == 2 })
        let buffer = try #require(sink.lastBuffer)
        // At 2× the view is x, y 0.25 ... 0.75 of the full one: the white marker (0.05 ...
        // 0.15) is out of the picture and the orange patch (column 0, row 1 of the chart,
        // centred at 0.30, 0.45) sits at 0.1, 0.4 of the frame.
        let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
        func pixel(_ x: Double, _ y: Double) -> UnsafeMutablePointer<UInt8> {
            base + Int(y * Double(buffer.height)) * buffer.bytesPerRow(0) + 4 * Int(x * Double(buffer.width))
        }
        let corner = pixel(0.1, 0.1)
        #expect(corner[0] < 200 && corner[1] < 200 && corner[2] < 200)
        let orange = pixel(0.1, 0.405)
        #expect(Int(orange[2]) - Int(orange[0]) > 60)
    }

    @Test func everyPixelFormatRenders() throws {
        for format in PixelFormat.pictureFormats {
            let camera = camera()
            let sink = try record(camera, configuration(camera, preset: "AVCaptureSessionPresetLow", pixelFormat: format), frames: 12)
            let buffer = try #require(sink.lastBuffer)
            #expect(buffer.format == format)
            let meta = try #require(sink.frames.last?.metadata)
            #expect(meta.meanLuma > 0.3 && meta.meanLuma < 0.6, "\(format.fourCC): \(meta.meanLuma)")
            if format.isYUV {
                // The neutral background sits near zero chroma.
                let cbPlane = buffer.planeAddress(1).assumingMemoryBound(to: UInt8.self)
                let step = format.planeCount == 2 ? 2 : 1
                // 10-bit words (value << 6, little-endian): the high byte is the top 8 bits.
                let byte = format.isTenBit ? 2 * 4 * step + 1 : 4 * step
                let cb = Int(cbPlane[(buffer.height / 2 - 4) * buffer.bytesPerRow(1) + byte])
                #expect(abs(cb - 128) < 12, "\(format.fourCC): Cb \(cb)")
            }
        }
    }
}
