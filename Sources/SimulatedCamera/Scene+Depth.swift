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
/// The other scene kinds (`SceneContent`) are drawn as one plane at the wall's distance for
/// now; their documented depths (`WindowScene`, `LowLightRoom`, `MotionScene`) are not yet
/// modelled, so in them focus, defocus and the torch see a flat scene 2.5 m away.
extension Scene {
    /// Distance of the back wall and what hangs on it, metres.
    package static let wallDistance: Float = 2.5
    /// Distance of the colour chart, metres.
    package static let chartDistance: Float = 1.0
    /// Distance of the moving ball, metres.
    package static let ballDistance: Float = 0.5
    /// Every distance `staticDistance` returns.
    package static let staticDistances: [Float] = [wallDistance, chartDistance]

    /// Distance of everything but the ball at (x, y) (normalised scene coordinates), metres.
    package func staticDistance(x: Double, y: Double) -> Float {
        guard content == .chart else { return Scene.wallDistance }
        // The chart board holds the grey ramp and the glyph card as well (`ChartExtras`).
        let onBoard = ColorChart.reflectance(x: x, y: y) != nil || ChartExtras.reflectance(x: x, y: y, seed: seed) != nil
        return onBoard ? Scene.chartDistance : Scene.wallDistance
    }

    /// Distance of what is seen at (x, y) at `time` seconds, metres. `aspect` (width /
    /// height) keeps the ball round, as in `radiance`.
    package func objectDistance(x: Double, y: Double, time: Double, aspect: Double = 4.0 / 3.0) -> Float {
        let b = ball(at: time)
        let dx = (x - b.x) * aspect
        let dy = y - b.y
        if (dx * dx + dy * dy).squareRoot() < b.radius { return Scene.ballDistance }
        return staticDistance(x: x, y: y)
    }
}
