/// How far the scene's objects are from the camera, for defocus and the torch.
///
/// The default scene is three flat layers facing the camera:
///
/// | object | distance |
/// |---|---|
/// | back wall (background texture, white marker, red square) | 2.5 m |
/// | colour chart, with its black surround | 1.0 m |
/// | moving ball | 0.5 m |
///
/// Distances do not change with zoom: zoom is a crop of the same view.
///
/// The other kinds follow the depths their layouts document, in a few flat planes (a floor
/// that recedes is cut into two bands): `WindowScene` (room 4 m, outside 1000 m, sofa 2.5 m,
/// table 1.8 m), `LowLightRoom` (wall 3.5 m, bookshelf 3.2 m, sofa 2.2 m, near floor 1.8 m),
/// `MotionScene` (wall 3 m, balls 1.0, 2.0 and 0.6 m), a flat field or an image 2 m. Objects
/// that enter on the timeline are 1.5 m away. Moving objects carry their distance
/// (`Scene.Ball.distance`), so defocus blurs and the torch lights each at its own.
extension Scene {
    /// Distance of the back wall and what hangs on it, metres.
    package static let wallDistance: Float = 2.5
    /// Distance of the colour chart, metres.
    package static let chartDistance: Float = 1.0
    /// Distance of the moving ball, metres.
    package static let ballDistance: Float = 0.5
    /// Every distance `staticDistance` returns, for each kind of scene.
    static let chartPlanes: [Float] = [wallDistance, chartDistance]
    static let windowPlanes: [Float] = [4, 1000, 2.5, 1.8]
    static let roomPlanes: [Float] = [3.5, 3.2, 2.2, 1.8]
    static let motionPlanes: [Float] = [3]
    static let flatPlanes: [Float] = [2]

    /// Every distance `staticDistance` returns for this scene (shared arrays: reading it
    /// allocates nothing).
    package var staticDistances: [Float] {
        guard pictures.isEmpty else {
            // Cards add their own planes (this allocates, but only for scenes with cards).
            var planes = contentDistances
            for picture in pictures where !planes.contains(picture.distance) { planes.append(picture.distance) }
            return planes
        }
        return contentDistances
    }

    private var contentDistances: [Float] {
        switch content {
        case .chart: Scene.chartPlanes
        case .hdr: Scene.windowPlanes
        case .lowlight: Scene.roomPlanes
        case .motion: Scene.motionPlanes
        case .flat, .image: Scene.flatPlanes
        }
    }

    /// A box of the static depth: `distance` inside it (normalised scene coordinates, min
    /// inclusive, max exclusive).
    package typealias DepthBox = (minX: Double, maxX: Double, minY: Double, maxY: Double, distance: Float)

    /// `staticDistance` as boxes over one background distance, for the scenes where it is that
    /// (the chart, motion, flat and image scenes without cards): what `Defocus` fills its mask
    /// from row by row instead of pixel by pixel. Nil for the others.
    package var depthBoxes: (background: Float, boxes: [DepthBox])? {
        pictures.isEmpty ? contentDepthBoxes : nil
    }

    /// `depthBoxes` of the content alone, whatever cards are in front of it.
    package var contentDepthBoxes: (background: Float, boxes: [DepthBox])? {
        switch content {
        case .chart:
            let boxes = [
                (ColorChart.minX, ColorChart.maxX, ColorChart.minY, ColorChart.maxY), ChartExtras.ramp, ChartExtras.card,
            ]
            return (Scene.wallDistance, boxes.map { box -> DepthBox in (box.0, box.1, box.2, box.3, Scene.chartDistance) })
        case .motion: return (3, [])
        case .flat, .image: return (2, [])
        case .hdr, .lowlight: return nil
        }
    }

    /// Distance of everything but the ball at (x, y) (normalised scene coordinates), metres.
    package func staticDistance(x: Double, y: Double) -> Float {
        for picture in pictures.reversed() where picture.reflectance(x: x, y: y) != nil { return picture.distance }
        switch content {
        case .chart:
            // The chart board holds the grey ramp and the glyph card as well (`ChartExtras`).
            let onBoard = ColorChart.reflectance(x: x, y: y) != nil || ChartExtras.reflectance(x: x, y: y, seed: seed) != nil
            return onBoard ? Scene.chartDistance : Scene.wallDistance
        case .hdr:
            let window = WindowScene.window
            if x >= window.minX, x < window.maxX, y >= window.minY, y < window.maxY, abs(x - 0.5) >= 0.005, abs(y - 0.325) >= 0.005 {
                return 1000
            }
            if x >= 0.04, x < 0.30, y >= 0.58, y < 0.88 { return 2.5 }
            if x >= 0.60, x < 0.92, y >= 0.66, y < 0.95 { return 1.8 }
            if y >= 0.75 { return y < 0.85 ? 2.5 : 1.8 }
            return 4
        case .lowlight:
            if x >= 0.55, x < 0.95, y >= 0.52, y < 0.80 { return 2.2 }
            if x >= 0.28, x < 0.45, y >= 0.45, y < 0.72 { return 3.2 }
            if y >= 0.72 { return y < 0.86 ? 2.2 : 1.8 }
            return 3.5
        case .motion: return 3
        case .flat, .image: return 2
        }
    }

    /// Distance of what is seen at (x, y) at `time` seconds, metres. `aspect` (width /
    /// height) keeps the ball round, as in `radiance`.
    package func objectDistance(x: Double, y: Double, time: Double, aspect: Double = 4.0 / 3.0) -> Float {
        // The last object drawn is in front, as in `radiance`.
        for b in ([ball(at: time)] + movingObjects(at: time)).reversed() where b.radius > 0 {
            let dx = (x - b.x) * aspect
            let dy = y - b.y
            if (dx * dx + dy * dy).squareRoot() < b.radius { return b.distance }
        }
        return staticDistance(x: x, y: y)
    }
}
