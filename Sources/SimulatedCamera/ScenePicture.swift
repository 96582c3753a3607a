import Foundation

/// A flat card in the 3-D scene in front of the scene's content: a picture (a code drawn
/// by `CodePicture`, or a decoded file) printed on it, at a distance and an angle, so the
/// camera's focus, exposure, noise and motion act on it as on any surface.
///
/// Camera space is metres, x right, y down, z along the optical axis. The card is placed so
/// its centre appears at `(centerX, centerY)` (normalised sensor coordinates) at `distance`
/// metres along the axis, then turned by yaw (about its vertical axis), pitch (about its
/// horizontal axis) and roll (in its plane), in degrees. It is projected with the focal
/// lengths of the format it was placed for (horizontal field of view and aspect ratio):
/// like every scene, it is stretched with the frame on a format of another shape.
package struct ScenePicture: Sendable, Equatable {
    package let image: SceneImage
    /// Distance of the card's centre, metres (its whole plane defocuses as at that distance).
    package let distance: Float
    /// The part of the picture holding the code itself (inside its quiet zone), as fractions.
    package let content: (minU: Double, minV: Double, maxU: Double, maxV: Double)
    private let center: SIMD3<Double>
    private let uAxis: SIMD3<Double>
    private let vAxis: SIMD3<Double>
    private let normal: SIMD3<Double>
    private let size: SIMD2<Double>
    /// Focal lengths in normalised image units (x over the width, y over the height).
    private let focal: SIMD2<Double>

    package init(
        image: SceneImage, content: (minU: Double, minV: Double, maxU: Double, maxV: Double) = (0, 0, 1, 1), centerX: Double,
        centerY: Double, width: Double, distance: Double, yaw: Double, pitch: Double, roll: Double, horizontalFieldOfView: Double,
        aspect: Double
    ) {
        self.image = image
        self.content = content
        self.distance = Float(distance)
        let fx = 0.5 / tan(horizontalFieldOfView * .pi / 360)
        focal = SIMD2(fx, fx * aspect)
        center = SIMD3((centerX - 0.5) / focal.x * distance, (centerY - 0.5) / focal.y * distance, distance)
        size = SIMD2(width, width * Double(image.height) / Double(image.width))
        let (y, p, r) = (yaw * .pi / 180, pitch * .pi / 180, roll * .pi / 180)
        // Roll in the card's plane, then pitch about x, then yaw about y.
        func turn(_ v: SIMD3<Double>) -> SIMD3<Double> {
            let rolled = SIMD3(v.x * cos(r) - v.y * sin(r), v.x * sin(r) + v.y * cos(r), v.z)
            let pitched = SIMD3(rolled.x, rolled.y * cos(p) - rolled.z * sin(p), rolled.y * sin(p) + rolled.z * cos(p))
            return SIMD3(pitched.x * cos(y) + pitched.z * sin(y), pitched.y, -pitched.x * sin(y) + pitched.z * cos(y))
        }
        uAxis = turn(SIMD3(1, 0, 0))
        vAxis = turn(SIMD3(0, 1, 0))
        normal = SIMD3(uAxis.y * vAxis.z - uAxis.z * vAxis.y, uAxis.z * vAxis.x - uAxis.x * vAxis.z, uAxis.x * vAxis.y - uAxis.y * vAxis.x)
    }

    /// The card's reflectance seen at (x, y), or nil where the card is not.
    func reflectance(x: Double, y: Double) -> SIMD3<Float>? {
        guard let (u, v) = cardPoint(x: x, y: y), u >= 0, u < 1, v >= 0, v < 1 else { return nil }
        return image.sample(x: u, y: v)
    }

    /// Where the ray through (x, y) meets the card, in picture fractions.
    func cardPoint(x: Double, y: Double) -> (Double, Double)? {
        let ray = SIMD3((x - 0.5) / focal.x, (y - 0.5) / focal.y, 1)
        let facing = (normal * ray).sum()
        guard abs(facing) > 1e-9 else { return nil }
        let t = (normal * center).sum() / facing
        guard t > 0 else { return nil }
        let local = ray * t - center
        return (0.5 + (local * uAxis).sum() / size.x, 0.5 + (local * vAxis).sum() / size.y)
    }

    /// Where the picture point (u, v) (fractions) appears, normalised sensor coordinates.
    package func project(u: Double, v: Double) -> SIMD2<Double> {
        let point = center + (u - 0.5) * size.x * uAxis + (v - 0.5) * size.y * vAxis
        return SIMD2(0.5 + focal.x * point.x / point.z, 0.5 + focal.y * point.y / point.z)
    }

    /// How far along the optical axis the picture point (u, v) (fractions) is, metres.
    func depth(u: Double, v: Double) -> Double {
        (center + (u - 0.5) * size.x * uAxis + (v - 0.5) * size.y * vAxis).z
    }

    /// The code's corners as they appear: top left, top right, bottom right, bottom left.
    package var contentCorners: [SIMD2<Double>] {
        [project(u: content.minU, v: content.minV), project(u: content.maxU, v: content.minV),
         project(u: content.maxU, v: content.maxV), project(u: content.minU, v: content.maxV)]
    }

    package static func == (a: ScenePicture, b: ScenePicture) -> Bool {
        a.image == b.image && a.center == b.center && a.uAxis == b.uAxis && a.vAxis == b.vAxis && a.size == b.size && a.focal == b.focal
            && a.distance == b.distance
    }
}
