/// Draws the scene's moving ball over a row of the static layer.
///
/// The ball is the only thing that moves, so rather than re-rasterising the scene each
/// frame, rows the ball touches are copied to a scratch row and the disc is blended in
/// there, with an anti-aliased rim.
enum BallPainter {
    /// The ball in pixel space for one frame.
    struct Disc: Sendable, Equatable {
        /// Centre, pixels (pixel centres at +0.5).
        var x: Float
        var y: Float
        /// Radius, pixels; 0 draws nothing.
        var radius: Float
        /// Fixed-point centre radiance, per channel, vignetting included.
        var color: SIMD3<Float>

        static let none = Disc(x: 0, y: 0, radius: 0, color: .zero)

        /// The scene's ball as seen in a `width`×`height` image at `zoom` through `optics`.
        init(_ ball: Scene.Ball, width: Int, height: Int, zoom: Double, optics: Optics) {
            let aspect = Double(width) / Double(height)
            x = Float(((ball.x - 0.5) * zoom + 0.5) * Double(width))
            y = Float(((ball.y - 0.5) * zoom + 0.5) * Double(height))
            radius = Float(ball.radius * zoom * Double(height))
            // Vignetting varies little across the ball; take it at the centre.
            let falloff = optics.relativeIllumination(x: ball.x, y: ball.y, aspect: aspect)
            color = ball.color * falloff * StaticLayer.unit
        }

        init(x: Float, y: Float, radius: Float, color: SIMD3<Float>) {
            self.x = x
            self.y = y
            self.radius = radius
            self.color = color
        }
    }

    /// If the disc touches row `row`, copies `source` (a layer row) to `scratch` with the
    /// disc drawn in and returns true; otherwise leaves `scratch` alone and returns false.
    static func paint(
        _ disc: Disc, row: Int, width: Int, from source: UnsafePointer<UInt16>, into scratch: UnsafeMutablePointer<UInt16>
    ) -> Bool {
        guard disc.radius > 0 else { return false }
        let dy = Float(row) + 0.5 - disc.y
        let reach = disc.radius + 1
        guard abs(dy) < reach else { return false }
        let halfSpan = (reach * reach - dy * dy).squareRoot()
        let first = max(0, Int((disc.x - halfSpan).rounded(.down)))
        let last = min(width - 1, Int((disc.x + halfSpan).rounded(.up)))
        guard first <= last else { return false }
        scratch.update(from: source, count: 3 * width)
        for x in first...last {
            let dx = Float(x) + 0.5 - disc.x
            let distance = (dx * dx + dy * dy).squareRoot()
            // Pixel coverage: 1 inside, 0 outside, linear across the one-pixel rim.
            let coverage = min(max(disc.radius - distance + 0.5, 0), 1)
            guard coverage > 0 else { continue }
            let shaded = Scene.ballShading(disc.color, distance: min(distance / disc.radius, 1))
            for channel in 0..<3 {
                let index = channel * width + x
                let old = Float(scratch[index])
                scratch[index] = StaticLayer.encode((old + (shaded[channel] - old) * coverage) / StaticLayer.unit)
            }
        }
        return true
    }
}
