import CaptureCore

/// Renders frames: the static layer plus the ball, through the sensor and the ISP, into a
/// pixel buffer, in one pass per row pair split across a `RenderWorkers` gang.
///
/// Per row: take the static-layer row (or a copy with the ball drawn in), convert each
/// channel to ADC codes with `Sensor.convertRow` into a per-worker scratch row, and as
/// soon as two rows are ready, encode them with the ISP. Scratch rows stay in cache, and
/// every buffer is made when the size changes, so a frame allocates nothing.
///
/// Used by one capture thread; `run(part:of:)` is called by the gang during `render`.
final class FrameRenderer: ParallelJob, @unchecked Sendable {
    /// Per-frame inputs.
    struct Frame {
        var index: Int64 = 0
        var time: Double = 0
        var exposure: SensorExposure
        var ball: BallPainter.Disc
    }

    private enum Task { case idle, fillLayer, render }

    /// Memory private to one worker.
    private final class Scratch {
        let raw: UnsafeMutablePointer<UInt16>
        let ballRow: UnsafeMutablePointer<UInt16>
        let histogram: UnsafeMutablePointer<UInt32>
        let width: Int
        init(width: Int) {
            self.width = width
            raw = .allocate(capacity: 6 * width)
            ballRow = .allocate(capacity: 3 * width)
            histogram = .allocate(capacity: FrameStatistics.bins)
            histogram.initialize(repeating: 0, count: FrameStatistics.bins)
        }
        deinit {
            raw.deallocate()
            ballRow.deallocate()
            histogram.deallocate()
        }
    }

    let workers: RenderWorkers
    let isp = ISP()
    private(set) var scene: Scene
    private(set) var optics: Optics
    private var noise: NoiseTable
    private(set) var layer: StaticLayer?
    private var scratch: [Scratch] = []
    private var histograms: [UnsafeMutablePointer<UInt32>] = []
    private var task = Task.idle
    // The frame being rendered and where to; set by `render` before the gang runs.
    private var frame: Frame?
    private var target: CVBuffer?
    private var encoder = YCbCrEncoder(format: .yuv420BiPlanarVideoRange)
    private var encoderFormat = PixelFormat.yuv420BiPlanarVideoRange

    init(scene: Scene, optics: Optics, workers: RenderWorkers) {
        self.scene = scene
        self.optics = optics
        self.workers = workers
        noise = NoiseTable(seed: scene.seed)
    }

    /// Changes the scene (a new seed also remakes the noise table).
    func setScene(_ new: Scene) {
        if new.seed != noise.seed { noise = NoiseTable(seed: new.seed) }
        if new.seed != scene.seed { layer = nil }
        scene = new
    }

    /// Makes sure the static layer matches the size and zoom, re-rasterising if not.
    func prepare(width: Int, height: Int, zoom: Double) {
        precondition(width <= NoiseTable.maxWindow, "frames wider than \(NoiseTable.maxWindow) are not supported")
        if let layer, layer.width == width, layer.height == height, layer.zoom == zoom { return }
        layer = StaticLayer(width: width, height: height, zoom: zoom)
        if scratch.first?.width != width {
            scratch = (0..<workers.parts).map { _ in Scratch(width: width) }
            histograms = scratch.map(\.histogram)
        }
        task = .fillLayer
        workers.run(self)
        task = .idle
    }

    /// Renders `frame` into `buffer` and returns its statistics. Call `prepare` with the
    /// buffer's size first.
    func render(_ frame: Frame, into buffer: CVBuffer) -> FrameStatistics {
        precondition(layer?.width == buffer.width && layer?.height == buffer.height, "prepare the renderer for this size")
        if buffer.format.isYUV && buffer.format != encoderFormat {
            encoder = YCbCrEncoder(format: buffer.format)
            encoderFormat = buffer.format
        }
        for histogram in histograms { histogram.update(repeating: 0, count: FrameStatistics.bins) }
        self.frame = frame
        target = buffer
        task = .render
        workers.run(self)
        task = .idle
        target = nil
        return FrameStatistics(merging: histograms)
    }

    func run(part: Int, of parts: Int) {
        guard let layer else { return }
        // Whole row pairs per part, so no two parts share a chroma row.
        let pairs = (layer.height + 1) / 2
        let first = 2 * (pairs * part / parts)
        let last = min(layer.height, 2 * (pairs * (part + 1) / parts))
        switch task {
        case .idle: break
        case .fillLayer: layer.fill(rows: first..<last, scene: scene, optics: optics)
        case .render:
            guard let frame, let target else { return }
            renderRows(first..<last, layer: layer, frame: frame, into: target, scratch: scratch[part])
        }
    }

    private func renderRows(_ rows: Range<Int>, layer: StaticLayer, frame: Frame, into buffer: CVBuffer, scratch: Scratch) {
        let width = layer.width, height = layer.height
        let rawA = scratch.raw, rawB = scratch.raw + 3 * width
        var y = rows.lowerBound
        while y < rows.upperBound {
            let hasB = y + 1 < height
            sensorRow(y, layer: layer, frame: frame, into: rawA, scratch: scratch)
            if hasB { sensorRow(y + 1, layer: layer, frame: frame, into: rawB, scratch: scratch) }
            let rowB = UnsafePointer(hasB ? rawB : rawA)
            writeRows(y, UnsafePointer(rawA), rowB, hasB: hasB, width: width, into: buffer)
            if FrameStatistics.samples(row: y) {
                FrameStatistics.accumulate(rawA, width: width, row: y, height: height, isp: isp, into: scratch.histogram)
            }
            if hasB && FrameStatistics.samples(row: y + 1) {
                FrameStatistics.accumulate(rowB, width: width, row: y + 1, height: height, isp: isp, into: scratch.histogram)
            }
            y += 2
        }
    }

    /// Sensor codes of row `y` into `raw` (R, G, B runs).
    private func sensorRow(_ y: Int, layer: StaticLayer, frame: Frame, into raw: UnsafeMutablePointer<UInt16>, scratch: Scratch) {
        let width = layer.width
        var source = UnsafePointer(layer.row(y))
        if BallPainter.paint(frame.ball, row: y, width: width, from: source, into: scratch.ballRow) {
            source = UnsafePointer(scratch.ballRow)
        }
        let scales = frame.exposure.dnPerUnit
        for channel in 0..<3 {
            Sensor.convertRow(
                source + channel * width, noise: noise.window(frame: frame.index, row: y, channel: channel),
                into: raw + channel * width, count: width, scale: scales[channel], exposure: frame.exposure)
        }
    }

    private func writeRows(
        _ y: Int, _ rawA: UnsafePointer<UInt16>, _ rawB: UnsafePointer<UInt16>, hasB: Bool, width: Int, into buffer: CVBuffer
    ) {
        switch buffer.format {
        case .bgra:
            let base = buffer.planeAddress(0), stride = buffer.bytesPerRow(0)
            isp.encodeBGRA(rawA, width: width, into: base + y * stride)
            if hasB { isp.encodeBGRA(rawB, width: width, into: base + (y + 1) * stride) }
        case .yuv420BiPlanarVideoRange, .yuv420BiPlanarFullRange, .yuv420PlanarVideoRange, .yuv420PlanarFullRange:
            let luma = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
            let lumaStride = buffer.bytesPerRow(0)
            let lumaA = luma + y * lumaStride
            let lumaB = hasB ? lumaA + lumaStride : nil
            let planar = buffer.format.planeCount == 3
            let cbPlane = buffer.planeAddress(1).assumingMemoryBound(to: UInt8.self) + (y / 2) * buffer.bytesPerRow(1)
            let crPlane =
                planar
                ? buffer.planeAddress(2).assumingMemoryBound(to: UInt8.self) + (y / 2) * buffer.bytesPerRow(2) : cbPlane + 1
            isp.encodeRowPair(
                rawA, rawB, width: width, lumaA: lumaA, lumaB: lumaB, cb: cbPlane, cr: crPlane,
                chromaStep: planar ? 1 : 2, encoder: encoder)
        }
    }
}
