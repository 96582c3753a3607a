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

    @Test func otherScenesStayOnTheSwiftPath() {
        var scene = Scene(seed: 3)
        scene.content = .lowlight
        let layer = StaticLayer(width: 8, height: 8, zoom: 1, color: .identity)
        let optics = SimulatedCameraCatalog.backWide.optics(for: SimulatedCameraCatalog.backWide.descriptor.formats[0])
        #expect(!layer.fillChart(rows: 0..<8, scene: scene, optics: optics))
    }
}
