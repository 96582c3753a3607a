import CaptureCore
/// The still part of a frame, rasterised once per (size, zoom, light): scene reflectance
/// under the scene illuminant in camera-native RGB (`CameraResponse.sceneToCamera`) times
/// the lens's relative illumination, everything but the moving ball.
///
/// Baking the illuminant in keeps the per-pixel loop a plain per-channel conversion; when
/// the light changes the layer is rasterised again (one slower frame).
///
/// Samples are relative signal (1 = diffuse white's strongest channel) as bfloat16, the
/// top 16 bits of a `Float` (8-bit mantissa: within 0.2 % of the value, far below any shot
/// noise; negative signal, which colours outside the sensor's gamut would need, is 0), stored
/// row by row, each row holding its red, then green, then blue samples in three runs of
/// `width`. Runs of one channel let the sensor's loop run 8 samples at a time; 16-bit
/// samples halve the memory traffic of floats, which matters at 1080p and 300 frames/s;
/// and bfloat16 turns into a float with one shift or mask (see `SensorKernel`).
final class StaticLayer: @unchecked Sendable {
    let width: Int
    let height: Int
    /// The zoom it is rasterised (or, for `ZoomResampler`'s output, resampled) at.
    var zoom: Double
    /// Reflectance (linear sRGB) → camera signal, the illuminant baked in; change it only
    /// to `fill` again.
    var color: ColorTransform
    /// Samples per row (3 × width).
    let rowStride: Int
    let samples: UnsafeMutablePointer<UInt16>
    /// Whether a still borrowed the layer (`StreamLayer`). Set once, by the capture thread,
    /// before the still's job is submitted; from then on nothing writes the layer again:
    /// writers (a new light, a blur) make a new layer instead, so the still queue reads it
    /// while the stream goes on. Read only by the threads that may write the layer.
    var isLent = false

    init(width: Int, height: Int, zoom: Double, color: ColorTransform) {
        self.width = width
        self.height = height
        self.zoom = zoom
        self.color = color
        rowStride = 3 * width
        // Page-mapped (`PageMemory`): 50 MB at 4K, handed back to the kernel when freed.
        samples = PageMemory.allocate(UInt16.self, count: rowStride * height)
    }

    deinit {
        PageMemory.deallocate(samples, count: rowStride * height)
    }

    /// The start of row `y` (red run; green at +width, blue at +2·width).
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt16> {
        samples + y * rowStride
    }

    /// Fills rows `rows` from the scene and optics; rows are independent, so workers can
    /// fill disjoint ranges at once.
    func fill(rows: Range<Int>, scene: Scene, optics: Optics) {
        if fillChart(rows: rows, scene: scene, optics: optics) { return }
        if fillChartBehindCards(rows: rows, scene: scene, optics: optics) { return }
        fillPerPixel(rows: rows, scene: scene, optics: optics)
    }

    /// `fill` sample by sample in Swift, from `Scene.staticReflectance`: any scene, and the
    /// reference the chart's kernel is tested against.
    func fillPerPixel(rows: Range<Int>, scene: Scene, optics: Optics) {
        let falloff = optics.falloff(aspect: Double(width) / Double(height))
        for y in rows { fillPerPixel(row: y, columns: 0..<width, scene: scene, falloff: falloff) }
    }

    /// `fillPerPixel` for the columns `columns` of row `y`.
    func fillPerPixel(row y: Int, columns: Range<Int>, scene: Scene, falloff: Optics.Falloff) {
        let sy = Optics.sceneCoordinate(pixel: y, size: height, zoom: zoom)
        let out = row(y)
        for x in columns {
            let sx = Optics.sceneCoordinate(pixel: x, size: width, zoom: zoom)
            let value = color.apply(scene.staticReflectance(x: sx, y: sy)) * falloff.at(x: sx, y: sy)
            out[x] = StaticLayer.encode(value.x)
            out[width + x] = StaticLayer.encode(value.y)
            out[2 * width + x] = StaticLayer.encode(value.z)
        }
    }

    /// The chart (or the motion scene's background) with cards in front: the kernel fills
    /// every row as if there were no cards, then the columns a card may cover are filled
    /// again per pixel (`Scene.pictureBounds`), so every sample is the one `fillPerPixel`
    /// gives. False, filling nothing, for other content or a card that may cover everything.
    func fillChartBehindCards(rows: Range<Int>, scene: Scene, optics: Optics) -> Bool {
        guard !scene.pictures.isEmpty, scene.content == .chart || scene.content == .motion,
            let bounds = scene.pictureBounds
        else { return false }
        fillChartKernel(rows: rows, scene: scene, optics: optics)
        let falloff = optics.falloff(aspect: Double(width) / Double(height))
        let xs = (0..<width).map { Optics.sceneCoordinate(pixel: $0, size: width, zoom: zoom) }
        for y in rows {
            let sy = Optics.sceneCoordinate(pixel: y, size: height, zoom: zoom)
            for columns in Scene.cardColumns(y: sy, xs: xs, bounds: bounds) {
                fillPerPixel(row: y, columns: columns, scene: scene, falloff: falloff)
            }
        }
        return true
    }

    /// A non-negative finite float → bfloat16, rounded to nearest (ties to even).
    @inline(__always)
    static func encode(_ value: Float) -> UInt16 {
        let bits = max(value, 0).bitPattern
        let rounded = bits &+ 0x7FFF &+ ((bits >> 16) & 1)
        return UInt16(truncatingIfNeeded: rounded >> 16)
    }

    /// bfloat16 → float.
    @inline(__always)
    static func decode(_ value: UInt16) -> Float {
        Float(bitPattern: UInt32(value) << 16)
    }
}
