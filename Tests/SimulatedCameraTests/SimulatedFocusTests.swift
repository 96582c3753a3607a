import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// One frame's metadata and the sharpness of the chart's centre.
private struct FocusFrame: Sendable {
    var metadata: FrameMetadata
    var sharpness: Double
}

/// A virtual-time camera (`index` in the catalog order: back wide, ultra wide, tele, front).
private func camera(_ index: Int = 0) -> SimulatedCamera {
    let camera = SimulatedCameraCatalog.builtInCameras()[index]
    camera.pacing = .virtual
    return camera
}

/// The format autofocus is tested in: 960×540, whose field of view (and so lens) is the
/// 1280×720 format's, at half the pixels to render. Blur measured in pixels is tested at
/// 1280×720 (`sharpPreset`).
private let focusPreset = "AVCaptureSessionPresetiFrame960x540"
private let sharpPreset = "AVCaptureSessionPreset1280x720"

/// Streams `frames` frames at 30 fps and measures each.
private func record(
    _ camera: SimulatedCamera, frames: Int, preset: String = focusPreset,
    onFrame: @escaping @Sendable (FrameMetadata) -> Void = { _ in }
) throws -> [FocusFrame] {
    let sink = RecordingSink<FocusFrame>(
        limit: frames,
        extract: { buffer, metadata in
            FocusFrame(metadata: metadata, sharpness: FocusMetric.sharpness(of: buffer, around: PointOfInterest(x: 0.5, y: 0.5)))
        }, onFrame: onFrame)
    let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
    let configuration = StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats[preset]!, minFrameDuration: frameDuration,
        maxFrameDuration: frameDuration, pixelFormat: .yuv420BiPlanarVideoRange)
    try camera.start(configuration, sink: sink)
    try sink.wait(thenStop: camera)
    return sink.frames
}

/// The thin-lens lens of `camera` in `preset`'s format.
private func lens(of camera: SimulatedCamera, preset: String = focusPreset) -> FocusLens {
    LensUnit.lens(camera.model, camera.descriptor.presetFormats[preset]!)
}

/// Prints figures for reports when OPENCAPTURE_REPORT is set.
private func report(_ line: @autoclosure () -> String) {
    if ProcessInfo.processInfo.environment["OPENCAPTURE_REPORT"] != nil { print("report:", line()) }
}

@Suite("Simulated focus", .serialized)
struct SimulatedFocusTests {
    /// Lens position ↔ distance round-trips; nearer objects need lower positions; the
    /// circle of confusion vanishes at the focused distance and grows away from it.
    @Test func thinLensModel() {
        let wide = lens(of: camera(), preset: sharpPreset)
        #expect(wide.lensPosition(focusing: 0.15) == 0)
        #expect(wide.focusDistance(lensPosition: 1) == .infinity)
        let chart = wide.lensPosition(focusing: 1.0), wall = wide.lensPosition(focusing: 2.5)
        let ball = wide.lensPosition(focusing: 0.5)
        #expect(ball < chart && chart < wall && wall < 1)
        #expect(abs(wide.focusDistance(lensPosition: chart) - 1.0) < 1e-6)
        #expect(wide.blurDiameter(distance: 1.0, lensPosition: chart) < 1e-9)
        let near = wide.blurRadius(distance: 1, lensPosition: chart - 0.1, width: 1920, zoom: 1)
        let nearer = wide.blurRadius(distance: 1, lensPosition: chart - 0.2, width: 1920, zoom: 1)
        #expect(near > 0.5 && nearer > near)
        report("wide: chart p=\(chart) wall p=\(wall) ball p=\(ball); radius at 1080p per dioptre \(wide.blurRadius(distance: 1, lensPosition: wide.lensPosition(focusing: 0.5), width: 1920, zoom: 1))")
        // The ultra wide is fixed-focus: every distance from its near limit on is within a pixel.
        let ultra = lens(of: camera(1), preset: sharpPreset)
        #expect(ultra.isFixed)
        let limit = camera(1).descriptor.focus.minimumFocusDistance
        for distance in [limit, 0.5, 1, 2.5, 1000] {
            #expect(ultra.blurRadius(distance: Float(distance), lensPosition: 1, width: 4032, zoom: 1) <= 1.01)
        }
    }

    /// Locked lens positions away from the chart's blur it: sharpness falls steadily with
    /// the distance from the in-focus position.
    @Test func defocusBlursWithDistanceFromFocus() throws {
        let camera = camera()
        let focus = lens(of: camera, preset: sharpPreset).lensPosition(focusing: Double(Scene.chartDistance))
        let offsets: [Float] = [0, 0.05, 0.1, 0.2, 0.35]
        var sharpness: [Double] = []
        for offset in offsets {
            camera.apply(.lens(id: 0, focus: .lock(lensPosition: focus - offset)))
            let frames = try record(camera, frames: 4, preset: sharpPreset)
            #expect(frames.allSatisfy { $0.metadata.focusState == .locked && !$0.metadata.isAdjustingFocus })
            #expect(abs(frames.last!.metadata.lensPosition - (focus - offset)) < 1e-6)
            sharpness.append(frames.last!.sharpness)
        }
        report("sharpness by offset \(offsets): \(sharpness)")
        for (a, b) in zip(sharpness, sharpness.dropFirst()) { #expect(b < a * 0.95) }
        #expect(sharpness.last! < sharpness.first! / 3)
    }

    /// Autofocus once from the nearest position finds the chart: it ends within 0.02 of the
    /// thin-lens answer, sharper there than a step either side, then holds (`.locked`).
    @Test func autoFocusFindsTheChart() throws {
        let camera = camera()
        let expected = lens(of: camera).lensPosition(focusing: Double(Scene.chartDistance))
        camera.apply(.lens(id: 1, focus: .lock(lensPosition: 0)))
        let frames = try record(camera, frames: 40) { m in
            if m.sequence == 2 { camera.apply(.lens(id: 2, focus: .autoOnce(FocusSearch()))) }
        }
        let start = try #require(frames.firstIndex { $0.metadata.appliedRequest >= 2 })
        #expect(frames[start - 1].metadata.lensPosition == 0)
        #expect(frames[start].metadata.isAdjustingFocus && frames[start].metadata.focusState == .autoOnce)
        let done = try #require(frames.firstIndex { $0.metadata.appliedRequest >= 2 && !$0.metadata.isAdjustingFocus })
        report("autofocus took \(done - start) frames; ended at \(frames[done].metadata.lensPosition), thin lens \(expected)")
        #expect(done - start <= 24)
        let found = frames[done].metadata.lensPosition
        #expect(abs(found - expected) < 0.02)
        #expect(frames[done...].allSatisfy { $0.metadata.focusState == .locked && $0.metadata.lensPosition == found })
        // The chart is at its sharpest where autofocus stopped.
        let best = frames[done].sharpness
        for offset: Float in [-0.1, -0.05, 0.05, 0.1] {
            camera.apply(.lens(id: 0, focus: .lock(lensPosition: found + offset)))
            let other = try record(camera, frames: 2).last!.sharpness
            #expect(other < best, "offset \(offset)")
        }
    }

    /// Continuous autofocus searches at the start, settles on the chart and stays; a point of
    /// interest on the wall focuses the wall instead; near/far restrictions bound the search.
    @Test func continuousAutoFocusAndRestrictions() throws {
        let camera = camera()
        let model = lens(of: camera)
        camera.apply(.lens(id: 1, focus: .continuous(FocusSearch())))
        let frames = try record(camera, frames: 40)
        report("continuous: " + frames.map { "\($0.metadata.lensPosition):\($0.metadata.isAdjustingFocus ? "A" : "-"):\(String(format: "%.4f", $0.sharpness))" }.joined(separator: " "))
        let settled = try #require(frames.lastIndex { $0.metadata.isAdjustingFocus }).advanced(by: 1)
        #expect(settled < 30)
        #expect(frames[settled...].allSatisfy { $0.metadata.focusState == .continuous && !$0.metadata.isAdjustingFocus })
        #expect(abs(frames.last!.metadata.lensPosition - model.lensPosition(focusing: 1)) < 0.02)
        // The wall, at the white marker: its edges give the contrast the plain wall lacks.
        camera.apply(.lens(id: 2, focus: .autoOnce(FocusSearch(point: PointOfInterest(x: 0.1, y: 0.1)))))
        let wall = try record(camera, frames: 30)
        #expect(abs(wall.last!.metadata.lensPosition - model.lensPosition(focusing: 2.5)) < 0.03)
        // Restricted to far, the search never goes near.
        camera.apply(.lens(id: 3, focus: .autoOnce(FocusSearch(rangeRestriction: 2))))
        let far = try record(camera, frames: 20)
        let split = model.lensPosition(focusing: AutoFocus.restrictionSplit)
        #expect(far.allSatisfy { $0.metadata.lensPosition >= split - 1e-6 })
        camera.apply(.lens(id: 4, focus: .autoOnce(FocusSearch(rangeRestriction: 1))))
        let near = try record(camera, frames: 20)
        #expect(near.allSatisfy { $0.metadata.lensPosition <= split + 1e-6 })
        // The chart (1 m) is "near": restricted to near, autofocus still finds it.
        #expect(abs(near.last!.metadata.lensPosition - model.lensPosition(focusing: 1)) < 0.02)
    }

    /// The ultra wide camera is fixed-focus: always locked at lens position 1, focus commands
    /// change nothing, and the chart is as sharp as the wide camera's in focus.
    @Test func ultraWideIsFixedFocus() throws {
        let ultra = camera(1)
        #expect(!ultra.descriptor.focus.hasAutoFocus)
        #expect(ultra.descriptor.formats.allSatisfy { $0.autoFocusSystem == 0 })
        ultra.apply(.lens(id: 1, focus: .continuous(FocusSearch())))
        ultra.apply(.lens(id: 2, focus: .lock(lensPosition: 0.2)))
        let frames = try record(ultra, frames: 5)
        #expect(frames.allSatisfy { $0.metadata.lensPosition == 1 && $0.metadata.focusState == .locked && !$0.metadata.isAdjustingFocus })
    }

    /// Smooth autofocus moves the lens in smaller steps (at most 0.05 a frame while sweeping)
    /// and takes longer, but finds the same focus.
    @Test func smoothAutoFocusTakesSmallerSteps() throws {
        let camera = camera()
        let expected = lens(of: camera).lensPosition(focusing: Double(Scene.chartDistance))
        camera.apply(.lens(id: 1, focus: .lock(lensPosition: 0)))
        camera.apply(.lens(id: 2, focus: .autoOnce(FocusSearch(smooth: true))))
        let frames = try record(camera, frames: 40)
        let search = frames.filter(\.metadata.isAdjustingFocus).map(\.metadata.lensPosition)
        #expect(search.count > 21)
        let coarse = search.prefix(21)
        for (a, b) in zip(coarse, coarse.dropFirst()) { #expect(abs(b - a) <= 0.05 + 1e-6) }
        #expect(abs(frames.last!.metadata.lensPosition - expected) < 0.02)
    }

    /// The ball (0.5 m) is blurred by its own distance: sharp-rimmed when focused on, soft when
    /// the lens is on the chart. (Its torch light is measured in `SimulatedZoomTorchTests`.)
    @Test func ballBlurByItsDistance() {
        let model = camera().model
        let index = model.descriptor.presetFormats["AVCaptureSessionPreset1280x720"]!
        let unit = LensUnit(camera: model, formatIndex: index, controls: LensControls())
        let lens = LensUnit.lens(model, index)
        func disc() -> BallPainter.Disc { BallPainter.Disc(x: 100, y: 100, radius: 40, color: SIMD3(repeating: 0.5)) }
        unit.apply(.lens(id: 1, focus: .lock(lensPosition: lens.lensPosition(focusing: Double(Scene.ballDistance)))), maximumZoom: 16)
        var sharp = disc()
        unit.adjust(&sharp, width: 1280)
        #expect(sharp.softness == 1 && sharp.color == disc().color)
        unit.apply(.lens(id: 2, focus: .lock(lensPosition: lens.lensPosition(focusing: Double(Scene.chartDistance)))), maximumZoom: 16)
        var soft = disc()
        unit.adjust(&soft, width: 1280)
        let expected = 2 * lens.blurRadius(distance: Scene.ballDistance, lensPosition: lens.lensPosition(focusing: 1), width: 1280, zoom: 1)
        #expect(soft.softness > 2 && abs(soft.softness - expected) < 1e-4)
    }

    /// The motion scene's balls and timeline entries each blur by their own distance: with
    /// the lens on one ball, that ball is sharp and the others are not, each as the thin lens
    /// says; a point inside a ball reports that ball's distance.
    @Test func movingObjectsBlurByTheirOwnDistance() {
        let model = camera().model
        let index = model.descriptor.presetFormats["AVCaptureSessionPreset1280x720"]!
        let unit = LensUnit(camera: model, formatIndex: index, controls: LensControls())
        let lens = LensUnit.lens(model, index)
        var scene = Scene(seed: 4)
        scene.content = .motion
        // Between the top two balls' bands, so no object hides another's centre.
        scene.timeline.add(.objectEnters(y: 0.35, radius: 0.03, color: SIMD3(repeating: 0.5), speed: 1, restX: 0.5), at: 0)
        let objects = scene.movingObjects(at: 2)
        #expect(objects.map(\.distance) == MotionScene.tracks.map(\.distance) + [SceneTimeline.enteredObjectDistance])
        for focused in objects {
            unit.apply(
                .lens(id: 1, focus: .lock(lensPosition: lens.lensPosition(focusing: Double(focused.distance)))), maximumZoom: 16)
            for object in objects {
                var disc = BallPainter.Disc(
                    object, width: 1280, height: 720, zoom: 1, optics: model.optics(for: model.descriptor.formats[index]),
                    response: .identity)
                unit.adjust(&disc, width: 1280)
                let radius = lens.blurRadius(
                    distance: object.distance, lensPosition: lens.lensPosition(focusing: Double(focused.distance)), width: 1280, zoom: 1)
                #expect(abs(disc.softness - max(1, 2 * radius)) < 1e-4)
                if object.distance == focused.distance { #expect(disc.softness == 1) }
                // The nearest ball with the lens on the farthest: well outside the depth of field.
                if focused.distance == 2.0 && object.distance == 0.6 { #expect(disc.softness > 2) }
            }
            #expect(scene.objectDistance(x: focused.x, y: focused.y, time: 2, aspect: 16.0 / 9) == focused.distance)
        }
    }
}
