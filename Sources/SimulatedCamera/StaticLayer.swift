/// The still part of a frame, rasterised once per (size, zoom): scene reflectance times
/// the lens's relative illumination, everything but the moving ball.
///
/// Stored as `UInt16` fixed point (`unit` per diffuse white, so up to 16× white), row by
/// row, each row holding its red, then green, then blue samples in three runs of `width`.
/// Runs of one channel let the sensor's per-channel loop vectorise; 16-bit samples halve
/// the memory traffic of floats, which is what bounds a frame at 1080p.
final class StaticLayer: @unchecked Sendable {
    /// Fixed-point value of relative radiance 1.
    static let unit: Float = 4096

    let width: Int
    let height: Int
    let zoom: Double
    /// Samples per row (3 × width).
    let rowStride: Int
    let samples: UnsafeMutablePointer<UInt16>

    init(width: Int, height: Int, zoom: Double) {
        self.width = width
        self.height = height
        self.zoom = zoom
        rowStride = 3 * width
        samples = .allocate(capacity: rowStride * height)
    }

    deinit {
        samples.deallocate()
    }

    /// The start of row `y` (red run; green at +width, blue at +2·width).
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt16> {
        samples + y * rowStride
    }

    /// Fills rows `rows` from the scene and optics; rows are independent, so workers can
    /// fill disjoint ranges at once.
    func fill(rows: Range<Int>, scene: Scene, optics: Optics) {
        let aspect = Double(width) / Double(height)
        for y in rows {
            let sy = Optics.sceneCoordinate(pixel: y, size: height, zoom: zoom)
            let out = row(y)
            for x in 0..<width {
                let sx = Optics.sceneCoordinate(pixel: x, size: width, zoom: zoom)
                let value = scene.staticReflectance(x: sx, y: sy)
                    * optics.relativeIllumination(x: sx, y: sy, aspect: aspect)
                out[x] = StaticLayer.encode(value.x)
                out[width + x] = StaticLayer.encode(value.y)
                out[2 * width + x] = StaticLayer.encode(value.z)
            }
        }
    }

    /// Relative radiance → fixed point, rounded and clipped to the 16-bit range.
    @inline(__always)
    static func encode(_ value: Float) -> UInt16 {
        UInt16(min(max(value * unit + 0.5, 0), 65535))
    }
}
