import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// Streams `count` frames (352×288, 30 fps) from a fresh ultra-wide simulated camera and
/// returns the sequence numbers of the frames flagged as a subject-area change.
private func changes(frames count: Int, onFrame: @escaping @Sendable (SimulatedCamera, FrameMetadata) -> Void = { _, _ in }) throws -> [Int64] {
    let camera = SimulatedCameraCatalog.builtInCameras()[1]
    camera.pacing = .virtual
    let sink = MetadataSink(limit: count) { onFrame(camera, $0) }
    let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
    let configuration = StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats["AVCaptureSessionPreset352x288"]!, minFrameDuration: frameDuration,
        maxFrameDuration: frameDuration, pixelFormat: .yuv420BiPlanarVideoRange)
    try camera.start(configuration, sink: sink)
    try sink.wait(thenStop: camera)
    return sink.frames.filter(\.subjectAreaChanged).map(\.sequence)
}

@Suite("Subject area detector")
struct SubjectAreaDetectorTests {
    /// Sensor noise and the small moving ball never count.
    @Test func staticSceneNeverChanges() throws {
        #expect(try changes(frames: 300).isEmpty)
    }

    /// A 2 EV brightening or darkening reports once, on the frame it happens.
    @Test(arguments: [Float(800), 50])
    func lightingChangeReportsOnce(luminance: Float) throws {
        let flagged = try changes(frames: 120) { camera, m in
            if m.sequence == 40 { camera.sceneLuminanceScale = luminance }
        }
        #expect(flagged == [41])
    }

    /// Light back and forth: each change reports once, after the scene settled again.
    @Test func eachChangeReportsOnce() throws {
        let flagged = try changes(frames: 160) { camera, m in
            if m.sequence == 30 { camera.sceneLuminanceScale = 800 }
            if m.sequence == 90 { camera.sceneLuminanceScale = 200 }
        }
        #expect(flagged == [31, 91])
    }

    /// A new framing (zoom 1 → 2) is a substantial change.
    @Test func zoomChangeReports() throws {
        let flagged = try changes(frames: 80) { camera, m in
            if m.sequence == 30 { camera.zoomFactor = 2 }
        }
        #expect(flagged == [31])
    }

    /// A small brightness step (⅓ EV) is not substantial.
    @Test func smallLightingStepIsIgnored() throws {
        let flagged = try changes(frames: 80) { camera, m in
            if m.sequence == 30 { camera.sceneLuminanceScale = 250 }
        }
        #expect(flagged.isEmpty)
    }
}
