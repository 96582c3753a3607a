import CRenderKernels

/// Makes a zoomed view of a static layer by bilinear resampling, so a zoom ramp does not
/// rasterise the scene every frame.
///
/// While a ramp runs, the layer is rasterised at a reference zoom z_ref ≤ z and each frame
/// at zoom z is the central z_ref/z of it, enlarged. The enlargement is kept at most
/// `maximumEnlargement` by re-rasterising the reference now and then; when the zoom
/// settles the layer is rasterised at the final zoom, sharp again. Defocus and the torch
/// are applied to the reference, so the resampled view carries them.
///
/// Each worker interpolates a source row horizontally once into a float scratch row and
/// keeps the last two, so neighbouring output rows (which share source rows when enlarging)
/// only blend them vertically. Both passes are C (`oc_zoom_interpolate`, `oc_zoom_blend`):
/// they run every frame of a ramp.
final class ZoomResampler: ParallelJob, @unchecked Sendable {
    /// The most a reference is enlarged before it is rasterised again.
    static let maximumEnlargement = 1.5

    private(set) var output: StaticLayer?
    private var source: StaticLayer?
    private var columns: UnsafeMutablePointer<Int32>?
    private var weights: UnsafeMutablePointer<Float>?
    private var width = 0
    /// Per worker: two horizontally interpolated rows (3 × width floats each).
    private var rows: [UnsafeMutablePointer<Float>] = []

    deinit {
        columns?.deallocate()
        weights?.deallocate()
        for row in rows { row.deallocate() }
    }

    /// The reference zoom for a frame at `zoom` during a ramp toward `target`, given the
    /// current reference `reference`: kept while it covers the view without enlarging it
    /// more than `maximumEnlargement`.
    static func reference(current reference: Double, zoom: Double, target: Double) -> Double {
        if reference <= zoom * (1 + 1e-9) && zoom <= reference * maximumEnlargement { return reference }
        // Zooming in: rasterise at this zoom. Zooming out: far enough out to last a while.
        return target >= zoom ? zoom : max(target, zoom / maximumEnlargement)
    }

    /// Where the view's centre sits in the source, in source pixels from its centre.
    private var offset = (x: 0.0, y: 0.0)

    /// `source` (rasterised at a zoom ≤ `zoom`) resampled to `zoom`, into `output`, its
    /// centre moved by `offset` source pixels (a shaken camera's view; edges beyond the
    /// source repeat its border).
    func resample(
        _ source: StaticLayer, to zoom: Double, offset: (x: Double, y: Double) = (0, 0), workers: RenderWorkers
    ) -> StaticLayer {
        self.offset = offset
        // Every frame of a ramp has its own zoom: the output's memory is reused for it (a new
        // layer per frame would map and fault in megabytes on the capture thread each time).
        if let output, output.width == source.width, output.height == source.height {
            output.zoom = zoom
            output.color = source.color
        } else {
            output = nil
            output = StaticLayer(width: source.width, height: source.height, zoom: zoom, color: source.color)
        }
        if width != source.width || rows.count != workers.parts {
            columns?.deallocate()
            weights?.deallocate()
            for row in rows { row.deallocate() }
            width = source.width
            columns = .allocate(capacity: width)
            weights = .allocate(capacity: width)
            rows = (0..<workers.parts).map { _ in .allocate(capacity: 6 * source.width) }
        }
        self.source = source
        let ratio = source.zoom / zoom
        for x in 0..<width {
            let u = (Double(x) + 0.5 - Double(width) / 2) * ratio + Double(width) / 2 - 0.5 + offset.x
            let column = min(max(Int(u.rounded(.down)), 0), width - 2)
            columns![x] = Int32(column)
            weights![x] = Float(min(max(u - Double(column), 0), 1))
        }
        workers.run(self)
        self.source = nil
        return output!
    }

    func run(part: Int, of parts: Int) {
        guard let source, let output, let columns, let weights else { return }
        let width = source.width, height = source.height
        let ratio = source.zoom / output.zoom
        let first = height * part / parts, last = height * (part + 1) / parts
        let scratch = rows[part]
        // Which source rows the two scratch rows hold (-1: none).
        var held = (-1, -1)
        for y in first..<last {
            let v = (Double(y) + 0.5 - Double(height) / 2) * ratio + Double(height) / 2 - 0.5 + offset.y
            let y0 = min(max(Int(v.rounded(.down)), 0), height - 2)
            let wy = Float(min(max(v - Double(y0), 0), 1))
            // Slot 0 holds row y0, slot 1 row y0 + 1; shift or fill as needed.
            if held.0 != y0 {
                if held.1 == y0 {
                    scratch.update(from: scratch + 3 * width, count: 3 * width)
                } else {
                    interpolate(source.row(y0), into: scratch, columns: columns, weights: weights)
                }
                held.0 = y0
                held.1 = -1
            }
            if held.1 != y0 + 1 {
                interpolate(source.row(y0 + 1), into: scratch + 3 * width, columns: columns, weights: weights)
                held.1 = y0 + 1
            }
            oc_zoom_blend(scratch, scratch + 3 * width, output.row(y), 3 * width, wy)
        }
    }

    /// One source row, all three channels, interpolated at the output columns.
    @inline(__always)
    private func interpolate(
        _ row: UnsafePointer<UInt16>, into target: UnsafeMutablePointer<Float>, columns: UnsafePointer<Int32>,
        weights: UnsafePointer<Float>
    ) {
        oc_zoom_interpolate(row, target, columns, weights, width)
    }
}
