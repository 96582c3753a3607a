/// Makes a zoomed view of a static layer by bilinear resampling, so a zoom ramp does not
/// rasterise the scene every frame.
///
/// While a ramp runs, the layer is rasterised at a reference zoom z_ref ≤ z and each frame
/// at zoom z is the central z_ref/z of it, enlarged. The enlargement is kept at most
/// `maximumEnlargement` by re-rasterising the reference now and then; when the zoom
/// settles the layer is rasterised at the final zoom, sharp again. Defocus and the torch
/// are applied to the reference, so the resampled view carries them.
final class ZoomResampler: ParallelJob, @unchecked Sendable {
    /// The most a reference is enlarged before it is rasterised again.
    static let maximumEnlargement = 1.5

    private(set) var output: StaticLayer?
    private var source: StaticLayer?
    private var columns: [Int] = []
    private var weights: [Float] = []

    /// The reference zoom for a frame at `zoom` during a ramp toward `target`, given the
    /// current reference `reference`: kept while it covers the view without enlarging it
    /// more than `maximumEnlargement`.
    static func reference(current reference: Double, zoom: Double, target: Double) -> Double {
        if reference <= zoom * (1 + 1e-9) && zoom <= reference * maximumEnlargement { return reference }
        // Zooming in: rasterise at this zoom. Zooming out: far enough out to last a while.
        return target >= zoom ? zoom : max(target, zoom / maximumEnlargement)
    }

    /// `source` (rasterised at a zoom ≤ `zoom`) resampled to `zoom`, into `output`.
    func resample(_ source: StaticLayer, to zoom: Double, workers: RenderWorkers) -> StaticLayer {
        if output == nil || output!.width != source.width || output!.height != source.height || output!.zoom != zoom {
            output = StaticLayer(width: source.width, height: source.height, zoom: zoom, color: source.color)
        }
        self.source = source
        let width = source.width
        let ratio = source.zoom / zoom
        columns = (0..<width).map { x in
            let u = (Double(x) + 0.5 - Double(width) / 2) * ratio + Double(width) / 2 - 0.5
            return min(max(Int(u.rounded(.down)), 0), width - 2)
        }
        weights = (0..<width).map { x in
            let u = (Double(x) + 0.5 - Double(width) / 2) * ratio + Double(width) / 2 - 0.5
            return Float(min(max(u - Double(columns[x]), 0), 1))
        }
        workers.run(self)
        self.source = nil
        return output!
    }

    func run(part: Int, of parts: Int) {
        guard let source, let output else { return }
        let width = source.width, height = source.height
        let ratio = source.zoom / output.zoom
        let first = height * part / parts, last = height * (part + 1) / parts
        for y in first..<last {
            let v = (Double(y) + 0.5 - Double(height) / 2) * ratio + Double(height) / 2 - 0.5
            let y0 = min(max(Int(v.rounded(.down)), 0), height - 2)
            let wy = Float(min(max(v - Double(y0), 0), 1))
            let top = source.row(y0), bottom = source.row(y0 + 1), target = output.row(y)
            for channel in 0..<3 {
                let offset = channel * width
                for x in 0..<width {
                    let c = offset + columns[x], wx = weights[x]
                    let upper = StaticLayer.decode(top[c]) + (StaticLayer.decode(top[c + 1]) - StaticLayer.decode(top[c])) * wx
                    let lower =
                        StaticLayer.decode(bottom[c]) + (StaticLayer.decode(bottom[c + 1]) - StaticLayer.decode(bottom[c])) * wx
                    target[offset + x] = StaticLayer.encode(upper + (lower - upper) * wy)
                }
            }
        }
    }
}
