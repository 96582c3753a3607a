import CaptureCore
import ColorScience

/// Renders frames: the static layer plus the ball, through the sensor and the ISP, into a
/// pixel buffer, in one pass per row pair split across a `RenderWorkers` gang.
///
/// Per row: convert each channel of the static-layer row to ADC codes with
/// `SensorKernel.convertRow` into a per-worker scratch row, redo the ball's span if the
/// ball crosses the row (`BallPainter`), and as soon as two rows are ready, encode them
/// with the ISP and meter them: luma for auto exposure (`FrameStatistics`, from the output)
/// and camera-native colour for white balance (`ZoneStatistics`, from the sensor codes).
/// Scratch rows stay in cache, and every buffer is made when the size changes, so a frame
/// allocates nothing.
///
/// Used by one capture thread; `run(part:of:)` is called by the gang during `render`.
final class FrameRenderer: ParallelJob, @unchecked Sendable {
    /// Per-frame inputs.
    struct Frame {
        /// The frame counter, which selects the noise.
        var index: Int64
        var exposure: SensorExposure
        var ball: BallPainter.Disc
        /// More moving objects (the motion scene, timeline entries); each on rows of its own.
        var others: [BallPainter.Disc] = []
        /// Video HDR: merge with a short exposure (see `HDRMerge`); nil for one exposure.
        var hdr: HDRMerge?
        /// Where to write the raw Bayer mosaic (RGGB, width × height codes), if wanted.
        var mosaic: UnsafeMutablePointer<UInt16>?

        /// Sensor codes at or above this have a channel at (or in the noise of) clipping.
        var clipCode: UInt16 {
            let top = min(exposure.fullWellDN + exposure.blackLevel, exposure.maxCode)
            return UInt16(exposure.blackLevel + 0.95 * (top - exposure.blackLevel))
        }
    }

    private enum Task { case idle, fillLayer, render }

    /// Memory private to one worker.
    private final class Scratch {
        let raw: UnsafeMutablePointer<UInt16>
        let ballRow: UnsafeMutablePointer<UInt16>
        let histogram: UnsafeMutablePointer<UInt32>
        let zones = ZoneStatistics.makeBuffer()
        let width: Int
        /// The short exposure's row, for video HDR, and the long samples clipped in this part.
        let short: UnsafeMutablePointer<UInt16>
        var clipped = 0
        init(width: Int) {
            self.width = width
            raw = .allocate(capacity: 6 * width)
            short = .allocate(capacity: 3 * width)
            ballRow = .allocate(capacity: 3 * width)
            histogram = .allocate(capacity: FrameStatistics.bins)
            histogram.initialize(repeating: 0, count: FrameStatistics.bins)
        }
        deinit {
            raw.deallocate()
            short.deallocate()
            ballRow.deallocate()
            histogram.deallocate()
            zones.deallocate()
        }
    }

    let workers: RenderWorkers
    let isp = ISP()
    private(set) var scene: Scene
    private(set) var optics: Optics
    private var noise: NoiseTable
    private(set) var layer: StaticLayer?
    /// A layer of the same size rendered instead of `layer` (a zoom ramp's resampled view).
    var substitute: StaticLayer?
    private var scratch: [Scratch] = []
    private var histograms: [UnsafeMutablePointer<UInt32>] = []
    private var zoneBuffers: [UnsafeMutablePointer<UInt32>] = []
    /// Colour statistics of the last frame rendered.
    let zones = ZoneStatistics()
    /// With video HDR, the share of the last frame's pixels whose long exposure clipped.
    private(set) var longClippedFraction = 0.0
    private var task = Task.idle
    // The frame being rendered and where to; set by `render` before the gang runs.
    private var frame: Frame?
    private var target: CVBuffer?

    init(scene: Scene, optics: Optics, workers: RenderWorkers) {
        self.scene = scene
        self.optics = optics
        self.workers = workers
        noise = NoiseTable(seed: scene.seed)
    }

    /// Changes the scene (a new seed also remakes the noise table).
    func setScene(_ new: Scene) {
        if new.seed != noise.seed { noise = NoiseTable(seed: new.seed) }
        if new.seed != scene.seed || new.content != scene.content || new.pictures != scene.pictures { layer = nil }
        scene = new
    }

    /// Makes sure the static layer matches the size, zoom, lens and light (`color`, the
    /// scene's reflectance → camera signal), re-rasterising if not; returns whether it did.
    @discardableResult
    func prepare(width: Int, height: Int, zoom: Double, optics newOptics: Optics, color: ColorTransform) -> Bool {
        precondition(width <= NoiseTable.maxWindow, "frames wider than \(NoiseTable.maxWindow) are not supported")
        if newOptics != optics {
            optics = newOptics
            layer = nil
        }
        if let layer, layer.width == width, layer.height == height, layer.zoom == zoom {
            if layer.color == color { return false }
            if layer.isLent {
                // A still reads this one: rasterise into a new layer.
                self.layer = StaticLayer(width: width, height: height, zoom: zoom, color: color)
            } else {
                // New light only: redraw into the same memory.
                layer.color = color
            }
        } else {
            layer = nil  // the old one goes first: 50 MB at 4K
            layer = StaticLayer(width: width, height: height, zoom: zoom, color: color)
        }
        makeScratch(width: width)
        task = .fillLayer
        workers.run(self)
        task = .idle
        return true
    }

    /// Takes `ready` (rasterised elsewhere for the current scene, lens and light) as the layer.
    func adopt(_ ready: StaticLayer) {
        layer = ready
    }

    /// Renders from `lent`, a layer a stream rasterised (and blurred) for exactly this view,
    /// lens and light, instead of rasterising one (`StreamLayer`). The next `prepare` must
    /// not take it for a sharp layer: call `dropLayer` before rendering anything else.
    func borrow(_ lent: StaticLayer, optics newOptics: Optics) {
        optics = newOptics
        layer = lent
        makeScratch(width: lent.width)
    }

    /// Lets go of the layer, so the next `prepare` rasterises.
    func dropLayer() {
        layer = nil
    }

    /// Per-worker rows for frames `width` wide, made when the width changes.
    private func makeScratch(width: Int) {
        guard scratch.first?.width != width else { return }
        scratch = (0..<workers.parts).map { _ in Scratch(width: width) }
        histograms = scratch.map(\.histogram)
        zoneBuffers = scratch.map(\.zones)
    }

    /// Renders `frame` into `buffer` and returns its statistics; its colour statistics are
    /// in `zones` afterwards. Call `prepare` with the buffer's size first.
    func render(_ frame: Frame, into buffer: CVBuffer) -> FrameStatistics {
        precondition(layer?.width == buffer.width && layer?.height == buffer.height, "prepare the renderer for this size")
        let range = ISP.range(of: buffer.format)
        for histogram in histograms { histogram.update(repeating: 0, count: FrameStatistics.bins) }
        for part in scratch { part.clipped = 0 }
        self.frame = frame
        target = buffer
        task = .render
        workers.run(self)
        task = .idle
        target = nil
        if frame.hdr != nil {
            longClippedFraction = Double(scratch.reduce(0) { $0 + $1.clipped }) / Double(max(buffer.width * buffer.height, 1))
        }
        let e = frame.exposure
        zones.merge(zoneBuffers, black: Double(e.blackLevel), white: Double(e.whiteDN / e.digitalGain))
        return FrameStatistics(merging: histograms, range: range)
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
            renderRows(first..<last, layer: substitute ?? layer, frame: frame, into: target, scratch: scratch[part])
        }
    }

    private func renderRows(_ rows: Range<Int>, layer: StaticLayer, frame: Frame, into buffer: CVBuffer, scratch: Scratch) {
        let width = layer.width, height = layer.height
        let rawA = scratch.raw, rawB = scratch.raw + 3 * width
        let clip = frame.clipCode
        var y = rows.lowerBound
        while y < rows.upperBound {
            let hasB = y + 1 < height
            sensorRow(y, layer: layer, frame: frame, into: rawA, scratch: scratch)
            if hasB { sensorRow(y + 1, layer: layer, frame: frame, into: rawB, scratch: scratch) }
            let rowB = UnsafePointer(hasB ? rawB : rawA)
            // Colour statistics from the sensor's own (long-exposure) codes, before any HDR
            // merge, so white balance and the subject-area monitor see linear signal.
            for row in y..<min(y + 2, height) where FrameStatistics.samples(row: row) {
                ZoneStatistics.accumulate(
                    row == y ? UnsafePointer(rawA) : rowB, width: width, row: row, height: height, clip: clip,
                    into: scratch.zones)
            }
            if frame.hdr != nil || frame.mosaic != nil {
                finishRow(y, layer: layer, frame: frame, raw: rawA, scratch: scratch)
                if hasB { finishRow(y + 1, layer: layer, frame: frame, raw: rawB, scratch: scratch) }
            }
            // The next pair's layer rows are fetched while this pair is encoded: the sensor
            // pass streams the layer from memory, the encoder computes, and this overlaps them.
            let next = y + 2 < rows.upperBound ? UnsafeRawBufferPointer(
                start: layer.row(y + 2), count: min(2, rows.upperBound - y - 2) * layer.rowStride * 2) : nil
            writeRows(y, UnsafePointer(rawA), rowB, hasB: hasB, width: width, into: buffer, prefetch: next)
            for row in y..<min(y + 2, height) where FrameStatistics.samples(row: row) {
                meter(row: row, of: buffer, into: scratch.histogram)
            }
            y += 2
        }
    }

    /// Sensor codes of row `y` into `raw` (R, G, B runs).
    private func sensorRow(_ y: Int, layer: StaticLayer, frame: Frame, into raw: UnsafeMutablePointer<UInt16>, scratch: Scratch) {
        let width = layer.width
        let source = UnsafePointer(layer.row(y))
        let scales = frame.exposure.dnPerUnit
        for channel in 0..<3 {
            SensorKernel.convertRow(
                source + channel * width, noise: noise.window(frame: frame.index, row: y, channel: channel),
                into: raw + channel * width, count: width, scale: scales[channel], exposure: frame.exposure)
        }
        redo(frame.ball, row: y, source: source, frame: frame, into: raw, scratch: scratch)
        for disc in frame.others { redo(disc, row: y, source: source, frame: frame, into: raw, scratch: scratch) }
    }

    /// Redoes the columns of row `y` that `disc` covers from a copy with the disc drawn in,
    /// with the same noise.
    private func redo(
        _ disc: BallPainter.Disc, row y: Int, source: UnsafePointer<UInt16>, frame: Frame, into raw: UnsafeMutablePointer<UInt16>,
        scratch: Scratch
    ) {
        let width = scratch.width
        let scales = frame.exposure.dnPerUnit
        guard let span = disc.span(row: y, width: width) else { return }
        BallPainter.paint(disc, row: y, span: span, width: width, from: source, into: scratch.ballRow)
        let count = span.count
        for channel in 0..<3 {
            SensorKernel.convertRow(
                scratch.ballRow + channel * count,
                noise: noise.window(frame: frame.index, row: y, channel: channel) + span.lowerBound,
                into: raw + channel * width + span.lowerBound, count: count, scale: scales[channel],
                exposure: frame.exposure)
        }
    }

    /// The optional steps between sensor and ISP: copies row `y`'s Bayer samples to the raw
    /// mosaic (the long exposure's codes, as the sensor reads them), then merges in the short
    /// exposure for video HDR. Off, neither costs anything.
    private func finishRow(_ y: Int, layer: StaticLayer, frame: Frame, raw: UnsafeMutablePointer<UInt16>, scratch: Scratch) {
        let width = layer.width
        if let mosaic = frame.mosaic {
            // RGGB: red and green on even rows, green and blue on odd ones.
            let out = mosaic + y * width
            let even = raw + (y & 1 == 0 ? 0 : width), odd = raw + (y & 1 == 0 ? width : 2 * width)
            var x = 0
            while x + 1 < width {
                out[x] = even[x]
                out[x + 1] = odd[x + 1]
                x += 2
            }
            if x < width { out[x] = even[x] }
        }
        guard let hdr = frame.hdr else { return }
        var short = frame
        short.exposure = hdr.shortExposure
        // Independent noise: a frame key no video frame or still uses.
        short.index = frame.index ^ (1 << 62)
        sensorRow(y, layer: layer, frame: short, into: scratch.short, scratch: scratch)
        scratch.clipped += hdr.merge(raw, short: UnsafePointer(scratch.short), width: width)
    }

    /// Adds row `row` of the written frame to the statistics.
    private func meter(row: Int, of buffer: CVBuffer, into histogram: UnsafeMutablePointer<UInt32>) {
        let base = UnsafeRawPointer(buffer.planeAddress(0)) + row * buffer.bytesPerRow(0)
        if buffer.format == .bgra {
            FrameStatistics.accumulate(bgra: base, width: buffer.width, row: row, height: buffer.height, into: histogram)
        } else if buffer.format.isTenBit {
            FrameStatistics.accumulate(
                luma10: base.assumingMemoryBound(to: UInt16.self), width: buffer.width, row: row, height: buffer.height,
                into: histogram)
        } else {
            FrameStatistics.accumulate(
                luma: base.assumingMemoryBound(to: UInt8.self), width: buffer.width, row: row, height: buffer.height,
                into: histogram)
        }
    }

    private func writeRows(
        _ y: Int, _ rawA: UnsafePointer<UInt16>, _ rawB: UnsafePointer<UInt16>, hasB: Bool, width: Int, into buffer: CVBuffer,
        prefetch: UnsafeRawBufferPointer?
    ) {
        switch buffer.format {
        case .bgra:
            let base = buffer.planeAddress(0), stride = buffer.bytesPerRow(0)
            // Half the next rows' fetches with each row.
            let half = prefetch.map { UnsafeRawBufferPointer(rebasing: $0[..<($0.count / 2)]) }
            let rest = prefetch.map { UnsafeRawBufferPointer(rebasing: $0[($0.count / 2)...]) }
            isp.encodeBGRA(rawA, width: width, into: base + y * stride, prefetch: half)
            if hasB { isp.encodeBGRA(rawB, width: width, into: base + (y + 1) * stride, prefetch: rest) }
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
                chromaStep: planar ? 1 : 2, prefetch: prefetch)
        case .yuv420TenBitBiPlanarVideoRange, .yuv420TenBitBiPlanarFullRange:
            let lumaStride = buffer.bytesPerRow(0)
            let lumaA = (buffer.planeAddress(0) + y * lumaStride).assumingMemoryBound(to: UInt16.self)
            let lumaB = hasB ? (buffer.planeAddress(0) + (y + 1) * lumaStride).assumingMemoryBound(to: UInt16.self) : nil
            let cbcr = (buffer.planeAddress(1) + (y / 2) * buffer.bytesPerRow(1)).assumingMemoryBound(to: UInt16.self)
            isp.encodeRowPair10(rawA, rawB, width: width, lumaA: lumaA, lumaB: lumaB, cbcr: cbcr, prefetch: prefetch)
        case .bayerRGGB14, .bayerGRBG14, .bayerBGGR14, .bayerGBRG14, .disparityFloat16, .disparityFloat32, .depthFloat16,
            .depthFloat32, .oneComponent8:
            preconditionFailure("frames are rendered as pictures; a still's mosaic is written beside them")
        }
    }
}
