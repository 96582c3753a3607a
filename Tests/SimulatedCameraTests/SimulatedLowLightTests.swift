import Foundation
import Synchronization
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// A frame's metadata and the BGRA values of the chart's neutral 5 patch (the buffer itself
/// is released at once).
private struct PatchFrame: Sendable {
    var metadata: FrameMetadata
    /// Per pixel, the mean of B, G and R over the inner part of the patch.
    var patch: [Double]

    /// The inner part of neutral 5 (row 4, column 4 of the chart), normalised coordinates.
    static let region = (minX: 0.515, maxX: 0.565, minY: 0.61, maxY: 0.675)

    init(buffer: CVPixelBuffer, metadata: FrameMetadata) {
        let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
        let r = PatchFrame.region
        var patch: [Double] = []
        for row in Int(r.minY * Double(buffer.height))..<Int(r.maxY * Double(buffer.height)) {
            for column in Int(r.minX * Double(buffer.width))..<Int(r.maxX * Double(buffer.width)) {
                let p = base + row * buffer.bytesPerRow(0) + 4 * column
                patch.append((Double(p[0]) + Double(p[1]) + Double(p[2])) / 3)
            }
        }
        self.metadata = metadata
        self.patch = patch
    }
}

/// A virtual-time built-in camera (0 back wide, 1 ultra wide, 2 telephoto, 3 front) in a
/// scene whose white is `luminance` cd/m².
private func camera(_ index: Int = 0, luminance: Float) -> SimulatedCamera {
    let camera = SimulatedCameraCatalog.builtInCameras()[index]
    camera.pacing = .virtual
    camera.sceneLuminanceScale = luminance
    return camera
}

/// Streams `frames` BGRA 640×480 frames at a fixed 30 fps.
private func record(
    _ camera: SimulatedCamera, frames: Int, onFrame: @escaping @Sendable (FrameMetadata) -> Void = { _ in }
) throws -> [PatchFrame] {
    let sink = RecordingSink(limit: frames, extract: PatchFrame.init, onFrame: onFrame)
    let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
    let configuration = StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats["AVCaptureSessionPreset640x480"]!, minFrameDuration: frameDuration,
        maxFrameDuration: frameDuration, pixelFormat: .bgra)
    try camera.start(configuration, sink: sink)
    try sink.wait(thenStop: camera)
    return sink.frames
}

/// Temporal signal-to-noise ratio of the patch over consecutive frame pairs: the mean
/// over the noise (the spread of a pair's difference / √2, which cancels fixed texture and
/// shading).
private func snr(_ frames: ArraySlice<PatchFrame>) -> Double {
    var ratios: [Double] = []
    for (a, b) in zip(frames, frames.dropFirst()) {
        let n = Double(a.patch.count)
        let mean = (a.patch.reduce(0, +) + b.patch.reduce(0, +)) / (2 * n)
        let differences = zip(a.patch, b.patch).map { $0 - $1 }
        let meanDifference = differences.reduce(0, +) / n
        let variance = differences.reduce(0) { $0 + ($1 - meanDifference) * ($1 - meanDifference) } / (n - 1) / 2
        ratios.append(mean / variance.squareRoot())
    }
    return ratios.reduce(0, +) / Double(ratios.count)
}

/// Prints figures for reports when OPENCAPTURE_REPORT is set.
private func report(_ line: @autoclosure () -> String) {
    if ProcessInfo.processInfo.environment["OPENCAPTURE_REPORT"] != nil { print("report:", line()) }
}

@Suite("Simulated low-light boost")
struct SimulatedLowLightTests {
    /// Only the back wide camera has the boost.
    @Test func onlyTheBackWideCameraSupportsBoost() {
        let cameras = SimulatedCameraCatalog.builtInCameras()
        #expect(cameras.map(\.descriptor.supportsLowLightBoost) == [true, false, false, false])
    }

    /// In a dim scene at 30 fps, an allowed boost turns on, lengthens exposure and frames
    /// to 1/15 s at a lower ISO, and raises the patch's signal-to-noise ratio; not allowed,
    /// the same scene never boosts and keeps 1/30 s frames.
    @Test(arguments: [1 as Float, 2])
    func boostRaisesSignalToNoiseInDimScenes(luminance: Float) throws {
        let plain = camera(luminance: luminance)
        let normal = try record(plain, frames: 50)
        #expect(normal.allSatisfy { !$0.metadata.isLowLightBoostEnabled })
        #expect(normal.allSatisfy { abs(HostClock.seconds($0.metadata.frameDuration) - 1.0 / 30) < 1e-6 })
        #expect(normal.allSatisfy { $0.metadata.exposureDuration <= 1.0 / 30 + 1e-9 })

        let boosted = camera(luminance: luminance)
        boosted.apply(ControlRequest(id: 1, lowLightBoostAllowed: true))
        let frames = try record(boosted, frames: 50)
        let on = try #require(frames.firstIndex { $0.metadata.isLowLightBoostEnabled })
        #expect(on <= 20)
        // Once on, it stays on.
        #expect(frames[on...].allSatisfy { $0.metadata.isLowLightBoostEnabled })
        let a = normal.last!.metadata, b = frames.last!.metadata
        #expect(b.exposureDuration >= 1.0 / 20)
        #expect(b.exposureDuration <= 1.0 / 15 + 1e-9)
        #expect(abs(HostClock.seconds(b.frameDuration) - 1.0 / 15) < 1e-6)
        #expect(b.iso < a.iso)
        // Both settle at mid-grey.
        #expect(abs(a.exposureTargetOffset) < 0.15 && abs(b.exposureTargetOffset) < 0.15)
        let without = snr(normal[30...]), with = snr(frames[30...])
        report(
            "low-light boost at \(luminance) cd/m²: 1/\(Int((1 / a.exposureDuration).rounded())) s ISO \(a.iso) SNR "
                + "\(String(format: "%.2f", without)) → 1/\(Int((1 / b.exposureDuration).rounded())) s ISO \(b.iso) SNR "
                + "\(String(format: "%.2f", with)) (×\(String(format: "%.2f", with / without))), on at frame \(on)")
        #expect(with >= 1.3 * without)
    }

    /// A bright scene turns the boost off again (back to 1/30 s frames); allowing it carries
    /// over a stop and start; forbidding it turns it off at once.
    @Test func brighteningTurnsBoostOff() throws {
        let camera = camera(luminance: 1.5)
        camera.apply(ControlRequest(id: 1, lowLightBoostAllowed: true))
        let frames = try record(camera, frames: 70) { m in
            if m.sequence == 35 { camera.sceneLuminanceScale = 150 }
        }
        #expect(frames[20..<36].allSatisfy { $0.metadata.isLowLightBoostEnabled })
        let off = try #require(frames[36...].firstIndex { !$0.metadata.isLowLightBoostEnabled })
        report("low-light boost off \(off - 36) frames after brightening ×100")
        #expect(off <= 50)
        #expect(frames[off...].allSatisfy { !$0.metadata.isLowLightBoostEnabled })
        let last = frames.last!.metadata
        #expect(abs(HostClock.seconds(last.frameDuration) - 1.0 / 30) < 1e-6)
        #expect(abs(last.exposureTargetOffset) < 0.15)

        // Dim again in a new stream: still allowed, so it boosts; then forbidding it stops it.
        camera.sceneLuminanceScale = 1.5
        let again = try record(camera, frames: 40) { m in
            if m.sequence == 25 { camera.apply(ControlRequest(id: 2, lowLightBoostAllowed: false)) }
        }
        #expect(again[..<26].contains { $0.metadata.isLowLightBoostEnabled })
        let stamped = again.filter { $0.metadata.appliedRequest >= 2 }
        #expect(!stamped.isEmpty)
        #expect(stamped.allSatisfy { !$0.metadata.isLowLightBoostEnabled })
        #expect(stamped.allSatisfy { abs(HostClock.seconds($0.metadata.frameDuration) - 1.0 / 30) < 1e-6 })
    }

    /// A camera without the boost ignores the request.
    @Test func unsupportedCameraNeverBoosts() throws {
        let camera = camera(1, luminance: 1)
        camera.apply(ControlRequest(id: 1, lowLightBoostAllowed: true))
        let frames = try record(camera, frames: 40)
        #expect(frames.allSatisfy { !$0.metadata.isLowLightBoostEnabled })
        #expect(frames.allSatisfy { abs(HostClock.seconds($0.metadata.frameDuration) - 1.0 / 30) < 1e-6 })
    }
}
