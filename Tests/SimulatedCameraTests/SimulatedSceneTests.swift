import Foundation
import Testing
import TestSupport

@testable import CaptureCore
@testable import SimulatedCamera

/// Linear values (sRGB-decoded mean of B, G, R) of a BGRA frame in a normalised region, with metadata.
private struct RegionFrame: Sendable {
    var metadata: FrameMetadata
    var values: [Double]

    static func extractor(_ region: (minX: Double, maxX: Double, minY: Double, maxY: Double)) -> @Sendable (CVPixelBuffer, FrameMetadata) -> RegionFrame {
        { buffer, metadata in
            let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
            var values: [Double] = []
            for row in Int(region.minY * Double(buffer.height))..<Int(region.maxY * Double(buffer.height)) {
                for column in Int(region.minX * Double(buffer.width))..<Int(region.maxX * Double(buffer.width)) {
                    let p = base + row * buffer.bytesPerRow(0) + 4 * column
                    values.append((Double(p[0]) + Double(p[1]) + Double(p[2])) / 3)
                }
            }
            return RegionFrame(metadata: metadata, values: values)
        }
    }

    var mean: Double { values.reduce(0, +) / Double(values.count) }
}

/// sRGB code (0 ... 255) → linear.
private func linear(_ code: Double) -> Double {
    let v = code / 255
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
}

/// A virtual-time back wide camera with `content`.
private func camera(_ content: SceneContent) -> SimulatedCamera {
    let camera = SimulatedCameraCatalog.builtInCameras()[0]
    camera.pacing = .virtual
    camera.sceneContent = content
    return camera
}

/// Streams `frames` BGRA 640×480 frames at 30 fps, extracting `region`.
private func record(
    _ camera: SimulatedCamera, frames: Int, region: (minX: Double, maxX: Double, minY: Double, maxY: Double) = (0.4, 0.6, 0.4, 0.6)
) throws -> [RegionFrame] {
    let sink = RecordingSink(limit: frames, extract: RegionFrame.extractor(region), onFrame: { _ in })
    let frameDuration = CMTime(value: 1, timescale: 30, flags: .valid, epoch: 0)
    let configuration = StreamConfiguration(
        formatIndex: camera.descriptor.presetFormats["AVCaptureSessionPreset640x480"]!, minFrameDuration: frameDuration,
        maxFrameDuration: frameDuration, pixelFormat: .bgra)
    try camera.start(configuration, sink: sink)
    try sink.wait(thenStop: camera)
    return sink.frames
}

/// Luminance (Rec.709 Y) of a linear RGB value.
private func luminance(_ c: SIMD3<Float>) -> Float { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }

@Suite("Simulated scenes")
struct SimulatedSceneTests {
    /// Lux and luminance: a white under E lux has E/π cd/m²; each scene kind sets its own light.
    @Test func illuminanceMapsToWhiteLuminance() {
        #expect(abs(SceneLighting.whiteLuminance(illuminance: 628.3185) - 200) < 1e-3)
        let camera = camera(.chart)
        #expect(abs(camera.sceneLuminanceScale - 200) < 1e-3)
        camera.sceneIlluminance = 100
        #expect(abs(camera.sceneLuminanceScale - 100 / Float.pi) < 1e-4)
        camera.sceneContent = .lowlight
        #expect(abs(camera.sceneIlluminance - 5) < 1e-4)
        camera.sceneContent = .hdr
        #expect(abs(camera.sceneIlluminance - 150) < 1e-3)
        // A neutral patch of reflectance ρ has L = E·ρ/π.
        var scene = Scene(seed: 1, luminanceScale: SceneLighting.whiteLuminance(illuminance: 300))
        scene.content = .flat(reflectance: 0.18)
        let radiance = scene.radiance(x: 0.5, y: 0.5, time: 0)
        #expect(abs(luminance(radiance) - 300 * 0.18 / Float.pi) < 1e-3)
    }

    /// Twice the lux gives twice the linear signal at a fixed exposure (a flat 18 % grey).
    @Test func doublingTheLuxDoublesTheSignal() throws {
        var means: [Double] = []
        for lux: Float in [200, 400] {
            let camera = camera(.flat(reflectance: 0.18))
            camera.sceneIlluminance = lux
            camera.apply(ControlRequest(id: 1, exposure: .custom(duration: 1.0 / 60, iso: 100)))
            let frames = try record(camera, frames: 12)
            means.append(linear(frames.last!.mean))
        }
        #expect(abs(means[1] / means[0] - 2) < 0.1, "ratio \(means[1] / means[0])")
    }

    /// A flat field is uniform: exactly in the scene, and within the noise (and the lens's
    /// gentle vignetting) in a frame's centre, where pixel spread matches frame-to-frame noise.
    @Test func flatIsUniformWithinNoise() throws {
        var scene = Scene(seed: 3)
        scene.content = .flat(reflectance: 0.5)
        let pixels = scene.rasterize(width: 64, height: 48)
        #expect(Set(pixels.map { $0.x }).count == 1 && Set(pixels.map { $0.y }).count == 1)
        let frames = try record(camera(.flat(reflectance: 0.5)), frames: 24, region: (0.45, 0.55, 0.45, 0.55))
        let a = frames[22].values, b = frames[23].values
        let n = Double(a.count)
        let mean = a.reduce(0, +) / n
        let spatial = (a.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)).squareRoot()
        let diffs = zip(a, b).map { $0 - $1 }
        let dMean = diffs.reduce(0, +) / n
        let temporal = (diffs.reduce(0) { $0 + ($1 - dMean) * ($1 - dMean) } / (n - 1) / 2).squareRoot()
        #expect(spatial < 1.3 * temporal + 0.3, "spatial \(spatial) temporal \(temporal)")
    }

    /// The hdr scene spans more than 1000:1 (sky against the shadow under the table).
    @Test func hdrSceneHasTheContrast() {
        var scene = Scene(seed: 1)
        scene.content = .hdr
        let pixels = scene.rasterize(width: 320, height: 240).map(luminance)
        let brightest = pixels.max()!, darkest = pixels.min()!
        #expect(brightest / darkest >= 1000, "contrast \(brightest / darkest)")
        // The sky is a light source far above the room's white.
        #expect(luminance(scene.radiance(x: 0.4, y: 0.2, time: 0)) > 30 * scene.luminanceScale)
    }

    /// The chart has a 12-step grey ramp rising left to right and dark glyph strokes on a white card.
    @Test func chartHasRampAndGlyphs() {
        let scene = Scene(seed: 1)
        let r = ChartExtras.ramp
        let steps = (0..<12).map { i in
            scene.staticReflectance(x: r.minX + (Double(i) + 0.5) / 12 * (r.maxX - r.minX), y: (r.minY + r.maxY) / 2).y
        }
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 < $1 })
        #expect(steps.first! < 0.04 && steps.last! > 0.85)
        let c = ChartExtras.card
        var ink = 0, paper = 0
        for i in 0..<400 {
            for j in 0..<20 {
                let v = scene.staticReflectance(x: c.minX + (Double(i) + 0.5) / 400 * (c.maxX - c.minX), y: c.minY + (Double(j) + 0.5) / 20 * (c.maxY - c.minY)).y
                if v < 0.05 { ink += 1 } else if v > 0.8 { paper += 1 }
            }
        }
        #expect(ink > 800 && paper > 3000 && ink + paper == 8000, "ink \(ink) paper \(paper)")
    }

    /// The motion scene has three balls that move; the chart's ball is absent from the other kinds.
    @Test func motionSceneMoves() {
        var scene = Scene(seed: 1)
        scene.content = .motion
        let a = scene.movingObjects(at: 0), b = scene.movingObjects(at: 0.5)
        #expect(a.count == 3)
        #expect(zip(a, b).allSatisfy { abs($0.x - $1.x) > 0.04 })
        #expect(scene.ball(at: 0).radius == 0)
        let ball = a[1]
        #expect(scene.radiance(x: ball.x, y: ball.y, time: 0) != scene.radiance(x: ball.x, y: ball.y, time: 2))
    }

    /// The low-light room is dim: at its default 5 lux the scene's white is 1.6 cd/m².
    @Test func lowLightRoomIsDim() {
        let camera = camera(.lowlight)
        #expect(abs(camera.sceneLuminanceScale - 5 / Float.pi) < 1e-4)
        var scene = Scene(seed: 1)
        scene.content = .lowlight
        let mean = scene.rasterize(width: 64, height: 48).map(luminance).reduce(0, +) / Float(64 * 48)
        #expect(mean > 0.1 * scene.luminanceScale && mean < 0.5 * scene.luminanceScale)
    }

    /// A picture's sRGB values become linear reflectance, sampled over the frame.
    @Test func imageIsReflectance() {
        // 2×1: mid grey (sRGB 118 ≈ 18 %) and white.
        let image = SceneImage(width: 2, height: 1, sRGB8: [118, 118, 118, 255, 255, 255], name: "test")
        var scene = Scene(seed: 1)
        scene.content = .image(image)
        #expect(abs(scene.staticReflectance(x: 0.25, y: 0.5).y - 0.181) < 0.002)
        #expect(scene.staticReflectance(x: 0.75, y: 0.5) == SIMD3(repeating: 1))
    }

    /// A light change scripted at 0.5 s lands on the first frame at or after 0.5 s (frame 15
    /// at 30 fps): the signal doubles there, not before; an object scripted at 1 s is absent
    /// before and present after.
    @Test func timelineEventsHappenAtTheirTime() throws {
        let camera = camera(.flat(reflectance: 0.18))
        camera.sceneIlluminance = 200
        var timeline = SceneTimeline()
        timeline.add(.illuminance(400), at: 0.5)
        camera.sceneTimeline = timeline
        camera.apply(ControlRequest(id: 1, exposure: .custom(duration: 1.0 / 60, iso: 100)))
        let frames = try record(camera, frames: 20)
        let start = frames[0].metadata.presentationTime
        let first = try #require(frames.firstIndex { ($0.metadata.presentationTime - start).seconds >= 0.5 - 1e-9 })
        #expect(first == 15)
        let before = linear(frames[first - 1].mean), after = linear(frames[first].mean)
        #expect(abs(after / before - 2) < 0.12, "ratio \(after / before)")
        #expect(abs(linear(frames[first - 2].mean) / before - 1) < 0.05)

        var entering = SceneTimeline()
        entering.add(.objectEnters(y: 0.5, radius: 0.1, color: SIMD3(0.8, 0.1, 0.1), speed: 1, restX: 0.5), at: 1)
        var scene = Scene(seed: 1)
        scene.timeline = entering
        #expect(scene.movingObjects(at: 0.99).isEmpty)
        let ball = try #require(scene.movingObjects(at: 2).first)
        #expect(ball.x == 0.5)
        #expect(scene.movingObjects(at: 1.1).first!.x < 0.5)
    }
}
