import Foundation

/// The lens: a fixed aperture, a focal length set by the field of view, mild vignetting,
/// and zoom as a centre crop.
///
/// Zoom is digital here: zoom factor z shows the central 1/z of the sensor image, and
/// every optical quantity (vignetting angle) is taken at the sensor position that pixel
/// comes from.
package struct Optics: Sendable, Equatable {
    /// The f-number N (the device's `lensAperture`).
    package var fNumber: Float
    /// Horizontal field of view of the full sensor width, degrees.
    package var fieldOfView: Float
    /// Active sensor width, millimetres.
    package var sensorWidth: Double
    /// How much of the natural cos⁴ falloff survives the ISP's lens-shading correction:
    /// 0 none, 1 all. Phones correct most of it; a quarter left is a mild, visible vignette.
    package var vignettingStrength: Float = 0.25

    /// Lens transmittance T (ISO 12232's q factor uses T = 0.9).
    package static let transmittance = 0.9
    /// ISO 12232's vignetting factor v for the centre of the field.
    package static let centreVignettingFactor = 0.98
    /// The factor from scene luminance to image-plane illuminance at the centre:
    /// E = q₀·L/N² lux with q₀ = (π/4)·T·v ≈ 0.693. (ISO 12232's q = 0.65 also folds in
    /// cos⁴ 10°; off-axis falloff is `relativeIllumination` here.)
    package static let q0 = Double.pi / 4 * transmittance * centreVignettingFactor

    package init(fNumber: Float, fieldOfView: Float, sensorWidth: Double, vignettingStrength: Float = 0.25) {
        self.fNumber = fNumber
        self.fieldOfView = fieldOfView
        self.sensorWidth = sensorWidth
        self.vignettingStrength = vignettingStrength
    }

    /// Focal length in millimetres: half the sensor width over tan(half the field of view).
    package var focalLength: Double {
        sensorWidth / 2 / tan(Double(fieldOfView) * Double.pi / 360)
    }

    /// Image-plane illuminance (lux) at the centre for a scene luminance (cd/m²).
    package func illuminance(luminance: Double) -> Double {
        Optics.q0 * luminance / Double(fNumber * fNumber)
    }

    /// The scene coordinate a pixel centre samples at `zoom` (a centre crop).
    @inline(__always)
    package static func sceneCoordinate(pixel: Int, size: Int, zoom: Double) -> Double {
        0.5 + ((Double(pixel) + 0.5) / Double(size) - 0.5) / zoom
    }

    /// Illuminance relative to the centre at normalised sensor position (x, y), for an
    /// image of aspect `aspect` (width / height) spanning the sensor width: the cos⁴ law,
    /// with `vignettingStrength` of its loss kept.
    package func relativeIllumination(x: Double, y: Double, aspect: Double) -> Float {
        falloff(aspect: aspect).at(x: x, y: y)
    }

    /// `relativeIllumination` with its constants worked out once, for loops over pixels.
    package func falloff(aspect: Double) -> Falloff {
        let f = focalLength
        return Falloff(
            width: sensorWidth, height: sensorWidth / aspect, focalLengthSquared: f * f, strength: vignettingStrength)
    }

    /// The vignetting of one lens and image aspect.
    package struct Falloff: Sendable {
        let width: Double
        let height: Double
        let focalLengthSquared: Double
        let strength: Float

        /// Relative illumination at normalised sensor position (x, y).
        @inline(__always)
        package func at(x: Double, y: Double) -> Float {
            let dx = (x - 0.5) * width
            let dy = (y - 0.5) * height
            let r2 = dx * dx + dy * dy
            let f2 = focalLengthSquared
            // cos θ = f / sqrt(f² + r²), so cos⁴ θ = f⁴ / (f² + r²)².
            let cos4 = f2 * f2 / ((f2 + r2) * (f2 + r2))
            return 1 - strength * Float(1 - cos4)
        }
    }
}
