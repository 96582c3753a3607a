import Foundation

/// A camera's focusing lens as a thin lens: where a lens position focuses, and how large
/// the circle of confusion of an object at some distance is.
///
/// Lens position p (0 nearest ... 1 farthest, as `AVCaptureDevice.lensPosition`) maps to
/// the focused distance in diopters D = 1/s by
/// D(p) = D_far + (D_near − D_far)·(1 − p)², with D_near = 1/`minimumFocusDistance` and
/// D_far = −0.05 D: like a phone's voice-coil lens, position 1 is a little past infinity
/// (so 1 is "farthest", not infinity), and the square spreads the everyday 0.3 ... 3 m over
/// much of the range instead of crowding it near 1.
///
/// Circle of confusion (diameter on the sensor) of an object at distance s while focused at
/// s_f, aperture diameter A = f/N: c = A·f·|1/s_f − 1/s| / (1 − f/s_f) (thin lens,
/// 1/f = 1/s + 1/s'). In output pixels it scales with zoom and width over sensor width.
///
/// Per camera (f for 4:3 formats / 16:9 formats, which report a narrower field over the
/// same sensor width; blur is the circle-of-confusion radius per dioptre of defocus in a
/// 1920-pixel-wide image):
///
/// | camera | f | N | nearest | chart 1 m at p | wall 2.5 m at p | ball 0.5 m at p | blur per dioptre |
/// |---|---|---|---|---|---|---|---|
/// | back wide | 5.2 / 5.5 mm | 1.78 | 0.15 m | 0.60 | 0.74 | 0.45 | 1.9 / 2.2 px |
/// | back telephoto | 6.2 / 6.6 mm | 2.8 | 0.45 m | 0.32 | 0.55 | 0.05 | 3.3 / 3.7 px |
/// | front | 3.2 / 3.4 mm | 1.9 | 0.25 m | 0.49 | 0.67 | 0.29 | 1.3 / 1.5 px |
///
/// The back ultra wide (f 1.2 / 1.5 mm, N 2.2) is fixed-focus at its hyperfocal distance for
/// a 2-pixel circle, 0.31 / 0.48 m: sharp from half that (0.15 / 0.24 m) to infinity.
package struct FocusLens: Sendable, Equatable {
    /// Focal length, metres.
    package var focalLength: Double
    package var fNumber: Double
    /// Sensor width, metres.
    package var sensorWidth: Double
    /// Focus at lens positions 0 and 1, dioptres.
    package var nearDiopters: Double
    package var farDiopters: Double
    /// Whether the lens cannot move (then it stays at its hyperfocal distance).
    package var isFixed: Bool

    /// Focus at lens position 1, dioptres: a little past infinity.
    package static let farDiopters = -0.05
    /// The circle of confusion that still counts as sharp for a fixed-focus lens, in pixels of the full sensor.
    package static let acceptablePixels = 2.0

    /// The lens of `optics`; `minimumFocusDistance` in metres, nil for a fixed-focus lens
    /// (focused at its hyperfocal distance for a blur of `acceptablePixels` sensor pixels of `pixelPitch` µm).
    package init(optics: Optics, minimumFocusDistance: Double?, pixelPitch: Double) {
        focalLength = optics.focalLength / 1000
        fNumber = Double(optics.fNumber)
        sensorWidth = optics.sensorWidth / 1000
        if let minimumFocusDistance {
            isFixed = false
            nearDiopters = 1 / minimumFocusDistance
            farDiopters = FocusLens.farDiopters
        } else {
            isFixed = true
            let hyperfocal = FocusLens.hyperfocalDistance(
                focalLength: focalLength, fNumber: fNumber, circle: FocusLens.acceptablePixels * pixelPitch * 1e-6)
            nearDiopters = 1 / hyperfocal
            farDiopters = nearDiopters
        }
    }

    /// H = f²/(N·c) + f, metres.
    package static func hyperfocalDistance(focalLength f: Double, fNumber: Double, circle: Double) -> Double {
        f * f / (fNumber * circle) + f
    }

    /// The dioptres lens position `p` focuses at.
    package func focusDiopters(lensPosition p: Float) -> Double {
        let q = 1 - Double(min(max(p, 0), 1))
        return farDiopters + (nearDiopters - farDiopters) * q * q
    }

    /// The distance lens position `p` focuses at, metres (infinity past infinity).
    package func focusDistance(lensPosition p: Float) -> Double {
        let d = focusDiopters(lensPosition: p)
        return d > 0 ? 1 / d : .infinity
    }

    /// The lens position that focuses `distance` metres (clamped to 0 ... 1); 1 for a fixed lens.
    package func lensPosition(focusing distance: Double) -> Float {
        guard !isFixed else { return 1 }
        let share = (1 / distance - farDiopters) / (nearDiopters - farDiopters)
        return Float(1 - min(max(share, 0), 1).squareRoot())
    }

    /// Circle-of-confusion diameter on the sensor, metres, for an object at `distance`.
    package func blurDiameter(distance: Double, lensPosition p: Float) -> Double {
        let focus = focusDiopters(lensPosition: p)
        let aperture = focalLength / fNumber
        return aperture * focalLength * abs(focus - 1 / distance) / (1 - focalLength * focus)
    }

    /// Circle-of-confusion radius in pixels of an image `width` pixels wide at `zoom`.
    package func blurRadius(distance: Float, lensPosition p: Float, width: Int, zoom: Double) -> Float {
        Float(blurDiameter(distance: Double(distance), lensPosition: p) / 2 * zoom * Double(width) / sensorWidth)
    }
}
