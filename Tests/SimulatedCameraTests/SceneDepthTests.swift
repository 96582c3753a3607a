import Testing
@testable import SimulatedCamera

/// Each kind of scene gives its objects the depths its layout documents, in planes the
/// defocus mask knows (a distance outside `staticDistances` would land on the first plane).
@Suite("Scene depth")
struct SceneDepthTests {
    static let kinds: [SceneContent] = [.chart, .flat(reflectance: 0.5), .lowlight, .hdr, .motion]

    @Test(arguments: kinds)
    func everyDistanceIsAPlane(kind: SceneContent) {
        var scene = Scene(seed: 3)
        scene.content = kind
        var seen = Set<Float>()
        for row in 0..<100 {
            for column in 0..<100 {
                let distance = scene.staticDistance(x: (Double(column) + 0.5) / 100, y: (Double(row) + 0.5) / 100)
                #expect(scene.staticDistances.contains(distance), "\(kind): \(distance) m is not a plane")
                seen.insert(distance)
            }
        }
        #expect(seen == Set(scene.staticDistances), "\(kind): every plane is used")
    }

    @Test func documentedDepths() {
        var scene = Scene(seed: 3)
        #expect(scene.staticDistance(x: 0.5, y: 0.5) == Scene.chartDistance)
        #expect(scene.staticDistance(x: 0.5, y: 0.23) == Scene.chartDistance)  // the grey ramp is on the board
        #expect(scene.staticDistance(x: 0.1, y: 0.5) == Scene.wallDistance)
        scene.content = .hdr
        #expect(scene.staticDistance(x: 0.4, y: 0.2) == 1000)  // sky through the window
        #expect(scene.staticDistance(x: 0.15, y: 0.7) == 2.5)  // sofa
        #expect(scene.staticDistance(x: 0.7, y: 0.8) == 1.8)  // table and its shadow
        #expect(scene.staticDistance(x: 0.2, y: 0.3) == 4)  // wall
        scene.content = .lowlight
        #expect(scene.staticDistance(x: 0.7, y: 0.6) == 2.2)  // sofa
        #expect(scene.staticDistance(x: 0.3, y: 0.5) == 3.2)  // bookshelf
        #expect(scene.staticDistance(x: 0.1, y: 0.3) == 3.5)  // door on the wall
    }
}
