import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// A frame's metadata and, if it was measured, how much of it (full range) is clipped white
/// (Y' ≥ 250/255) and crushed black (Y' ≤ 5/255). Counting every pixel is slow in an
/// unoptimised test build, so only the frames a test looks at are measured.
private struct RangeFrame: Sendable {
    var metadata: FrameMetadata
    var clipped: Double = .nan
    var crushed: Double = .nan

    init(buffer: CVPixelBuffer, metadata: FrameMetadata, measured: Bool) {
        self.metadata = metadata
        guard measured else { return }
        let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
        var clipped = 0, crushed = 0
        for row in 0..<buffer.height {
            let line = base + row * buffer.bytesPerRow(0)
            for column in 0..<buffer.width {
                if line[column] >= 250 { clipped += 1 } else if line[column] <= 5 { crushed += 1 }
            }
        }
        let total = Double(buffer.width * buffer.height)
        self.clipped = Double(clipped) / total
        self.crushed = Double(crushed) / total
    }
}

/// Prints figures for reports when OPENCAPTURE_REPORT is set.
private func report(_ line: @autoclosure () -> String) {
    if ProcessInfo.processInfo.environment["OPENCAPTURE_REPORT"] != nil { print("report:", line()) }
}

/// Streams `frames` 1280×720 420f frames of `content` from the back wide camera with `hdr`,
/// measuring the frames whose sequence numbers are in `measured`.
private func record(
    _ content: SceneContent, hdr: VideoHDRMode, frames: Int, measuring measured: Range<Int64> = 0..<0,
    camera: SimulatedCamera = SimulatedCameraCatalog.builtInCameras()[0], onFrame: @escaping @Sendable (FrameMetadata) -> Void = { _ in }
) throws -> [RangeFrame] {
    camera.pacing = .virtual
    camera.sceneContent = content
    let sink = RecordingSink(
        limit: frames, extract: { RangeFrame(buffer: $0, metadata: $1, measured: measured.contains($1.sequence)) }, onFrame: onFrame)
    let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
    var configuration = StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats["AVCaptureSessionPreset1280x720"]!, minFrameDuration: frameDuration,
        maxFrameDuration: frameDuration, pixelFormat: .yuv420BiPlanarFullRange)
    configuration.videoHDR = hdr
    try camera.start(configuration, sink: sink)
    try sink.wait(thenStop: camera)
    return sink.frames
}

@Suite("Simulated video HDR")
struct SimulatedHDRTests {
    /// In the window scene, at the same auto-exposure target (both settled at mid-grey),
    /// merging a 16× shorter exposure and compressing highlights leaves far fewer clipped
    /// highlights and, with the curve's shadow lift, fewer crushed shadows.
    @Test func hdrExtendsDynamicRange() throws {
        let off = try record(.hdr, hdr: .off, frames: 45, measuring: 35..<45)
        let on = try record(.hdr, hdr: .on, frames: 45, measuring: 35..<45)
        #expect(off.allSatisfy { !$0.metadata.isVideoHDREnabled })
        #expect(on.allSatisfy { $0.metadata.isVideoHDREnabled })
        let a = off[35...], b = on[35...]
        let clippedOff = a.map(\.clipped).reduce(0, +) / 10, clippedOn = b.map(\.clipped).reduce(0, +) / 10
        let crushedOff = a.map(\.crushed).reduce(0, +) / 10, crushedOn = b.map(\.crushed).reduce(0, +) / 10
        report(
            String(
                format: "video HDR, window scene 720p: clipped %.2f%% → %.2f%%, crushed %.2f%% → %.2f%%; exposure %.5f s ISO %.0f off, %.5f s ISO %.0f on; offset %.2f / %.2f EV",
                100 * clippedOff, 100 * clippedOn, 100 * crushedOff, 100 * crushedOn, off.last!.metadata.exposureDuration,
                off.last!.metadata.iso, on.last!.metadata.exposureDuration, on.last!.metadata.iso,
                off.last!.metadata.exposureTargetOffset, on.last!.metadata.exposureTargetOffset))
        #expect(abs(off.last!.metadata.exposureTargetOffset) < 0.2 && abs(on.last!.metadata.exposureTargetOffset) < 0.2)
        // The window clips about a tenth of the frame without HDR (9.7% with the lens at
        // its resting focus, which softens the window's edges a little).
        #expect(clippedOff > 0.08)
        #expect(clippedOn < clippedOff / 4)
        #expect(crushedOn < crushedOff * 0.7)
    }

    /// Automatic HDR engages within a few frames in the window scene and never on the chart;
    /// when the window scene gives way to a flat field, it lets go.
    @Test func automaticHDRFollowsTheScene() throws {
        let window = try record(.hdr, hdr: .automatic, frames: 30, measuring: 29..<30)
        let on = try #require(window.firstIndex { $0.metadata.isVideoHDREnabled })
        report("automatic video HDR on at frame \(on) of the window scene")
        #expect(on <= 15)
        #expect(window[on...].allSatisfy { $0.metadata.isVideoHDREnabled })
        #expect(window.last!.clipped < 0.01)
        // Statistics come from the long exposure, so HDR switching on is no subject-area change.
        #expect(window.allSatisfy { !$0.metadata.subjectAreaChanged })
        #expect(try record(.chart, hdr: .automatic, frames: 30).allSatisfy { !$0.metadata.isVideoHDREnabled })

        let camera = SimulatedCameraCatalog.builtInCameras()[0]
        let frames = try record(.hdr, hdr: .automatic, frames: 70, camera: camera) { m in
            if m.sequence == 30 { camera.sceneContent = .flat(reflectance: 0.5) }
        }
        #expect(frames[29].metadata.isVideoHDREnabled)
        let off = try #require(frames[31...].firstIndex { !$0.metadata.isVideoHDREnabled })
        #expect(off <= 50)
        #expect(frames[off...].allSatisfy { !$0.metadata.isVideoHDREnabled })
    }

    /// HDR reads the sensor twice: the thermal model runs hotter with it (its HDR rise; under
    /// pressure the camera's temperature then shows among the factors, see `ThermalModel`).
    @Test func hdrAddsHeat() throws {
        var temperatures: [Double] = []
        for mode in [VideoHDRMode.off, .on] {
            let camera = SimulatedCameraCatalog.builtInCameras()[0]
            camera.thermalTimeScale = 2000
            _ = try record(.chart, hdr: mode, frames: 40, camera: camera)
            temperatures.append(camera.thermal.temperature)
        }
        report("thermal: \(temperatures[0]) °C without HDR, \(temperatures[1]) °C with")
        #expect(temperatures[1] - temperatures[0] > 0.8 * ThermalModel.hdrRise)
    }
}
