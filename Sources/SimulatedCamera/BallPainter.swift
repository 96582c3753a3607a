import CRenderKernels

/// Draws the scene's moving ball over a row of the static layer.
///
/// The ball is the only thing that moves, so rather than re-rasterising the scene each
/// frame, the renderer converts each row from the static layer and then, on rows the
/// ball touches, converts just the ball's span again from a scratch copy with the disc
/// blended in (same noise window, so the result is as if the whole row had the ball).
enum BallPainter {
    /// The ball in pixel space for one frame.
    struct Disc: Sendable, Equatable {
        /// Centre, pixels (pixel centres at +0.5).
        var x: Float
        var y: Float
        /// Radius, pixels; 0 draws nothing.
        var radius: Float
        /// Camera signal at the centre, per channel, vignetting included.
        var color: SIMD3<Float>
        /// Width of the rim's fade from inside to outside, pixels (1 = sharp; defocus widens it).
        var softness: Float = 1
        /// Distance from the camera, metres.
        var distance: Float = Scene.ballDistance

        /// The scene's ball as seen in a `width`×`height` image at `zoom` through `optics`,
        /// its reflectance turned into camera signal by `response` (as `StaticLayer.color`).
        init(_ ball: Scene.Ball, width: Int, height: Int, zoom: Double, optics: Optics, response: ColorTransform) {
            let aspect = Double(width) / Double(height)
            x = Float(((ball.x - 0.5) * zoom + 0.5) * Double(width))
            y = Float(((ball.y - 0.5) * zoom + 0.5) * Double(height))
            radius = Float(ball.radius * zoom * Double(height))
            // Vignetting varies little across the ball; take it at the centre.
            let falloff = optics.relativeIllumination(x: ball.x, y: ball.y, aspect: aspect)
            // Shading scales the colour, so it commutes with the linear response.
            color = response.apply(ball.color) * falloff
            distance = ball.distance
        }

        init(x: Float, y: Float, radius: Float, color: SIMD3<Float>) {
            self.x = x
            self.y = y
            self.radius = radius
            self.color = color
        }

        /// The columns the disc touches on row `row` of an image `width` wide, if any.
        func span(row: Int, width: Int) -> ClosedRange<Int>? {
            guard radius > 0 else { return nil }
            let dy = Float(row) + 0.5 - y
            let reach = radius + softness / 2 + 1
            guard abs(dy) < reach else { return nil }
            let halfSpan = (reach * reach - dy * dy).squareRoot()
            let first = max(0, Int((x - halfSpan).rounded(.down)))
            let last = min(width - 1, Int((x + halfSpan).rounded(.up)))
            return first <= last ? first...last : nil
        }
    }

    /// Writes columns `span` of layer row `source` (R, G, B runs of `width`) with the disc
    /// blended in to `scratch`, as three runs of `span.count` (R, G, B): the coverage of
    /// each pixel (1 inside, 0 outside, linear across the rim, `softness` wide) mixes the
    /// layer with the disc's colour shaded as `Scene.ballShading`. C (`oc_disc_row`).
    static func paint(
        _ disc: Disc, row: Int, span: ClosedRange<Int>, width: Int, from source: UnsafePointer<UInt16>,
        into scratch: UnsafeMutablePointer<UInt16>
    ) {
        var c = oc_disc(
            x: disc.x, y: disc.y, radius: disc.radius, softness: disc.softness,
            color: (disc.color.x, disc.color.y, disc.color.z))
        oc_disc_row(&c, row, span.lowerBound, span.count, width, source, scratch)
    }
}
