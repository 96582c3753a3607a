import ColorScience
import Testing

@testable import CaptureCore
@testable import SimulatedCamera

/// The default scene's static layer comes from a C kernel (`oc_chart_row`, issue 30: per pixel
/// in Swift a debug build took about 20 s for 4032x3024); every sample must be the one the
/// Swift path (`fillPerPixel`, from `Scene.staticReflectance`) gives, bit for bit.
@Suite("Static layer kernel")
struct StaticLayerKernelTests {
    /// Fills a layer both ways and returns the samples that differ (at most a few, described).
    private func differences(_ scene: Scene, width: Int, height: Int, zoom: Double) -> [String] {
        let model = SimulatedCameraCatalog.backWide
        let format = model.descriptor.formats[0]
        let optics = model.optics(for: format)
        let color = ColorTransform(model.response.sceneToCamera(under: TemperatureTint(temperature: 4300, tint: 5)))
        let kernel = StaticLayer(width: width, height: height, zoom: zoom, color: color)
        let swift = StaticLayer(width: width, height: height, zoom: zoom, color: color)
        let filled = kernel.fillChart(rows: 0..<height, scene: scene, optics: optics)
        swift.fillPerPixel(rows: 0..<height, scene: scene, optics: optics)
        guard filled else { return ["the kernel refused the scene"] }
        var found: [String] = []
        for y in 0..<height {
            for i in 0..<(3 * width) where kernel.row(y)[i] != swift.row(y)[i] && found.count < 5 {
                found.append("row \(y) sample \(i): kernel \(kernel.row(y)[i]), Swift \(swift.row(y)[i])")
            }
        }
        return found
    }

    @Test(arguments: [(1.0, UInt64(7)), (1.7, 12345), (0.9, 99)])
    func chartMatchesTheSwiftPathSampleForSample(zoom: Double, seed: UInt64) {
        #expect(differences(Scene(seed: seed), width: 403, height: 302, zoom: zoom) == [])
    }

    @Test func motionBackgroundMatchesTheSwiftPath() {
        var scene = Scene(seed: 3)
        scene.content = .motion
        #expect(differences(scene, width: 320, height: 180, zoom: 1.3) == [])
    }

    /// Defocus fills its depth mask from `Scene.depthBoxes` row by row; at every pixel centre
    /// the boxes must give the distance `staticDistance` gives.
    @Test(arguments: [SceneContent.chart, .motion, .flat(reflectance: 0.5)])
    func depthBoxesGiveTheStaticDistance(content: SceneContent) throws {
        var scene = Scene(seed: 5)
        scene.content = content
        let depth = try #require(scene.depthBoxes)
        var wrong: [String] = []
        for zoom in [1.0, 1.6] {
            for y in 0..<151 {
                let sy = Optics.sceneCoordinate(pixel: y, size: 151, zoom: zoom)
                for x in 0..<201 {
                    let sx = Optics.sceneCoordinate(pixel: x, size: 201, zoom: zoom)
                    let box = depth.boxes.first { sx >= $0.minX && sx < $0.maxX && sy >= $0.minY && sy < $0.maxY }
                    let distance = box?.distance ?? depth.background
                    if distance != scene.staticDistance(x: sx, y: sy), wrong.count < 5 { wrong.append("(\(sx), \(sy))") }
                }
            }
        }
        #expect(wrong == [])
        scene.content = .lowlight
        #expect(scene.depthBoxes == nil)
    }

    /// A chart with cards in front: a checkered card turned in depth, one rolled, one
    /// half out of the view and one partly behind another.
    private static func sceneWithCards(seed: UInt64) -> Scene {
        let checks = (0..<(8 * 8)).map { index -> SIMD3<Float> in
            (index / 8 + index % 8) % 2 == 0 ? SIMD3(repeating: 0.05) : SIMD3(0.9, 0.6, 0.2)
        }
        let image = SceneImage(width: 8, height: 8, linear: checks, name: "checks")
        func card(_ x: Double, _ y: Double, _ width: Double, _ distance: Double, yaw: Double, pitch: Double, roll: Double) -> ScenePicture {
            ScenePicture(
                image: image, centerX: x, centerY: y, width: width, distance: distance, yaw: yaw, pitch: pitch, roll: roll,
                horizontalFieldOfView: 70, aspect: 4.0 / 3.0)
        }
        var scene = Scene(seed: seed)
        scene.pictures = [
            card(0.3, 0.4, 0.2, 0.8, yaw: 35, pitch: -20, roll: 0), card(0.7, 0.6, 0.15, 0.6, yaw: 0, pitch: 0, roll: 30),
            card(0.98, 0.2, 0.3, 1.2, yaw: 10, pitch: 0, roll: 0), card(0.35, 0.45, 0.1, 0.5, yaw: 0, pitch: 40, roll: 15),
        ]
        return scene
    }

    /// With cards in front the kernel fills the chart and only the columns a card may cover
    /// are redone per pixel: the layer must still be `fillPerPixel`'s, sample for sample.
    @Test(arguments: [1.0, 1.4])
    func chartBehindCardsMatchesTheSwiftPath(zoom: Double) {
        let scene = Self.sceneWithCards(seed: 21)
        let model = SimulatedCameraCatalog.backWide
        let optics = model.optics(for: model.descriptor.formats[0])
        let color = ColorTransform(model.response.sceneToCamera(under: TemperatureTint(temperature: 5000, tint: 0)))
        let (width, height) = (401, 301)
        let hybrid = StaticLayer(width: width, height: height, zoom: zoom, color: color)
        let swift = StaticLayer(width: width, height: height, zoom: zoom, color: color)
        #expect(hybrid.fillChartBehindCards(rows: 0..<height, scene: scene, optics: optics))
        swift.fillPerPixel(rows: 0..<height, scene: scene, optics: optics)
        var differing = 0
        for y in 0..<height {
            for i in 0..<(3 * width) where hybrid.row(y)[i] != swift.row(y)[i] { differing += 1 }
        }
        #expect(differing == 0)
    }

    /// Every pixel a card changes (its reflectance or its distance) lies in the columns
    /// `Scene.cardColumns` gives for its row, which the layer and the depth mask redo per pixel.
    @Test func cardColumnsHoldEveryPixelACardChanges() throws {
        let scene = Self.sceneWithCards(seed: 4)
        var bare = scene
        bare.pictures = []
        let bounds = try #require(scene.pictureBounds)
        let (width, height) = (320, 240)
        let xs = (0..<width).map { Optics.sceneCoordinate(pixel: $0, size: width, zoom: 1) }
        var changed = 0, outside: [String] = []
        for y in 0..<height {
            let sy = Optics.sceneCoordinate(pixel: y, size: height, zoom: 1)
            let ranges = Scene.cardColumns(y: sy, xs: xs, bounds: bounds)
            for x in 0..<width
            where scene.staticReflectance(x: xs[x], y: sy) != bare.staticReflectance(x: xs[x], y: sy)
                || scene.staticDistance(x: xs[x], y: sy) != bare.staticDistance(x: xs[x], y: sy)
            {
                changed += 1
                if !ranges.contains(where: { $0.contains(x) }) && outside.count < 5 { outside.append("(\(x), \(y))") }
            }
        }
        #expect(changed > 1000, "the cards change \(changed) pixels: the scene is not what the test means")
        #expect(outside == [])
        // A card whose corner is behind the camera may cover anything: no bounds.
        var behind = scene
        behind.pictures.append(
            ScenePicture(
                image: scene.pictures[0].image, centerX: 0.5, centerY: 0.5, width: 3, distance: 0.3, yaw: 80, pitch: 0, roll: 0,
                horizontalFieldOfView: 70, aspect: 4.0 / 3.0))
        #expect(behind.pictureBounds == nil)
    }

    @Test func otherScenesStayOnTheSwiftPath() {
        var scene = Scene(seed: 3)
        scene.content = .lowlight
        let layer = StaticLayer(width: 8, height: 8, zoom: 1, color: .identity)
        let optics = SimulatedCameraCatalog.backWide.optics(for: SimulatedCameraCatalog.backWide.descriptor.formats[0])
        #expect(!layer.fillChart(rows: 0..<8, scene: scene, optics: optics))
    }
}
