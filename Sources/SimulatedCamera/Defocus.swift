import CaptureCore
import CRenderKernels
import Foundation

/// Applies what depends on each object's distance to the static layer: defocus blur and
/// the torch's light. The layer keeps a sharp, unlit copy; whenever the lens position,
/// torch or layer change, each depth plane of the scene (`Scene.staticDistance`: wall,
/// chart) is blurred by its own circle of confusion and scaled by its own light, and the
/// planes are put together by the depth of the sharp image.
///
/// Blur: a disc of radius R (the circle of confusion) is approximated by a separable box
/// with the same variance per axis, R²/4. A box of n whole taps each side plus a fractional
/// tap f (0 ... 1) at each end has a variance that grows continuously with f, so blur
/// grows smoothly with defocus (contrast autofocus needs a smooth peak). Each axis is one
/// running-sum pass, so the cost does not depend on the radius.
///
/// Nothing runs per frame while the lens, torch and layer stay the same, so a focused,
/// still camera renders as fast as without it; nor when the effects moved by less than the
/// output can show (`Effect.isIndistinguishable`). Every lens move of an autofocus search
/// re-blurs the layer, which must fit in a frame's time next to the render: it is one C pass
/// (`oc_defocus_band` in CRenderKernels), rows split across the renderer's workers, that
/// blurs each plane along x into a ring of rows in cache and along y from there, and writes
/// each pixel once.
final class Defocus: ParallelJob, @unchecked Sendable {
    /// What happens to one depth plane.
    struct Effect: Equatable {
        /// Box half-width: whole taps and the weight of the fractional end taps.
        var taps: Int
        var fraction: Float
        /// Light multiplier (torch).
        var gain: Float

        static let identity = Effect(taps: 0, fraction: 0, gain: 1)

        /// The box with variance `radius`²/4 (a disc's per-axis variance), and `gain`.
        init(blurRadius radius: Float, gain: Float) {
            let variance = Double(radius * radius) / 4
            var n = 0
            // Whole taps while the box with one more whole tap still has less variance.
            while Defocus.variance(taps: n + 1, fraction: 0) <= variance && n < 512 { n += 1 }
            let sum = Defocus.sumOfSquares(n)
            let width = Double(2 * n + 1)
            let edge = Double((n + 1) * (n + 1))
            let f = max(0, min(1, (variance * width - sum) / (2 * edge - 2 * variance)))
            taps = n
            fraction = Float(f)
            // Below a thousandth of a tap the blur is invisible: skip it.
            if n == 0 && fraction < 1e-3 { fraction = 0 }
            self.gain = gain
        }

        init(taps: Int, fraction: Float, gain: Float) {
            self.taps = taps
            self.fraction = fraction
            self.gain = gain
        }

        var blurs: Bool { taps > 0 || fraction > 0 }

        /// Largest change of an output sample, as a share of the largest input sample, that
        /// counts as no change: a ten-thousandth of white is a third of an 8-bit code even
        /// on the steepest part of the sRGB curve (12.92 · 255 per unit of light).
        static let invisibleChange: Float = 1e-4

        /// Whether the layer made with `other` differs from this one's by less than
        /// `invisibleChange` everywhere, so it need not be made again. The same whole taps,
        /// and: a box (S + f·E) / W, W = 2n + 1 + 2f, moves by at most 2·|Δf| / W of its
        /// largest sample when f does, and the gain scales it. Compared against the effect
        /// in force, so slow drifts add up and are applied once they show.
        func isIndistinguishable(from other: Effect) -> Bool {
            guard taps == other.taps else { return false }
            let width = Float(2 * taps + 1) + 2 * min(fraction, other.fraction)
            let blurChange = 2 * abs(fraction - other.fraction) / width
            let gainChange = abs(gain - other.gain) / max(gain, other.gain, .leastNormalMagnitude)
            return blurChange + gainChange < Effect.invisibleChange
        }
    }

    /// 2·Σ k² for k = 1 ... n.
    static func sumOfSquares(_ n: Int) -> Double { Double(n * (n + 1) * (2 * n + 1)) / 3 }

    /// Variance of the box with `taps` whole taps each side and end taps of weight `fraction`.
    static func variance(taps n: Int, fraction f: Double) -> Double {
        let edge = Double((n + 1) * (n + 1))
        return (sumOfSquares(n) + 2 * f * edge) / (Double(2 * n + 1) + 2 * f)
    }

    private enum Pass { case none, mask, band }

    private weak var layer: StaticLayer?
    private var width = 0
    private var height = 0
    /// The sharp, unlit layer; valid when `hasSharp`.
    private var sharp: UnsafeMutablePointer<UInt16>?
    private var sharpCount = 0
    private var hasSharp = false
    /// Depth plane of each pixel (an index into `planeDistances`).
    private var mask: UnsafeMutablePointer<UInt8>?
    private var hasMask = false
    /// The scene the mask is being built from (set during the mask pass).
    private var maskScene: Scene?
    /// The scene's static depths (`Scene.staticDistances`), as of the last mask.
    private(set) var planeDistances = Scene.chartPlanes
    /// Effects in force on the layer now, one per plane (empty: the layer is sharp and unlit).
    private var applied: [Effect] = []
    /// The effects asked for this time, one per plane.
    private var wanted = [Effect](repeating: .identity, count: Scene.chartPlanes.count)
    /// `wanted` for the kernel, `planeCapacity` of them.
    private var planes: UnsafeMutablePointer<oc_defocus_plane>?
    private var planeCapacity = 0
    private var planeCount = 0
    private var pass = Pass.none
    /// Per worker: the kernel's scratch (its rings of rows blurred along x), `scratchBytes` each.
    private var scratch: [UnsafeMutableRawPointer] = []
    private var scratchBytes = 0

    deinit { release() }

    private func release() {
        // The big buffers are page-mapped (`PageMemory`): freed, they go back to the kernel.
        if let sharp { PageMemory.deallocate(sharp, count: sharpCount) }
        if let mask { PageMemory.deallocate(mask, count: width * height) }
        planes?.deallocate()
        for part in scratch { part.deallocate() }
        sharp = nil
        mask = nil
        planes = nil
        planeCapacity = 0
        scratch = []
        scratchBytes = 0
    }

    /// The effects `layer` carries now, one per plane of `planeDistances` (empty: sharp and
    /// unlit); nil if this is not the layer it blurs.
    func effects(on layer: StaticLayer) -> [Effect]? {
        layer === self.layer ? applied : nil
    }

    /// Brings `layer` to the effects `effect(distance)` gives each plane. `refilled` says the
    /// layer was just rasterised (sharp and unlit again). A layer lent to a still
    /// (`StaticLayer.isLent`) is not written: the result goes into a new layer, handed to
    /// `replace` (which makes it the renderer's). Returns whether pixels changed.
    @discardableResult
    func update(
        _ layer: StaticLayer, refilled: Bool, scene: Scene, workers: RenderWorkers, replace: (StaticLayer) -> Void,
        effect effectOf: (Float) -> Effect
    ) -> Bool {
        if layer !== self.layer || layer.width != width || layer.height != height {
            release()
            self.layer = layer
            width = layer.width
            height = layer.height
            hasSharp = false
            hasMask = false
            applied = []
        }
        if refilled {
            hasSharp = false
            applied = []
        }
        // Another kind of scene has other planes: the mask and the effects start over.
        let distances = scene.staticDistances
        if distances != planeDistances {
            planeDistances = distances
            wanted = [Effect](repeating: .identity, count: distances.count)
            hasMask = false
            applied = []
        }
        // Filled in place: a steady frame allocates nothing.
        for index in planeDistances.indices { wanted[index] = effectOf(planeDistances[index]) }
        let isIdentity = wanted.allSatisfy { $0 == .identity }
        if isIdentity && applied.isEmpty { return false }
        if wanted == applied { return false }
        if applied.count == wanted.count
            && zip(wanted, applied).allSatisfy({ $0.isIndistinguishable(from: $1) })
        {
            return false
        }
        if !hasMask { buildMask(layer, scene: scene, workers: workers) }
        if !hasSharp {
            // The layer is sharp and unlit now (refilled or never changed): keep a copy.
            let count = layer.rowStride * height
            if sharp == nil {
                sharp = PageMemory.allocate(UInt16.self, count: count)
                sharpCount = count
            }
            sharp!.update(from: layer.samples, count: count)
            hasSharp = true
        }
        // Every pixel of the result comes from the sharp copy, so a new layer needs no copy.
        let target = layer.isLent ? StaticLayer(width: width, height: height, zoom: layer.zoom, color: layer.color) : layer
        if target !== layer {
            self.layer = target
            replace(target)
        }
        prepareKernel(workers: workers)
        pass = .band
        workers.run(self)
        pass = .none
        applied = isIdentity ? [] : wanted
        return true
    }

    /// Fills the kernel's plane list from `wanted` and makes room in each worker's scratch
    /// for the widest box (before the workers run; they only read). Memory grows to the
    /// widest box seen and is kept.
    private func prepareKernel(workers: RenderWorkers) {
        if planeCapacity < wanted.count {
            planes?.deallocate()
            planes = .allocate(capacity: wanted.count)
            planeCapacity = wanted.count
        }
        var widest = 0
        planeCount = wanted.count
        for (index, effect) in wanted.enumerated() {
            planes![index] = oc_defocus_plane(taps: effect.taps, fraction: effect.fraction, gain: effect.gain)
            widest = max(widest, effect.taps)
        }
        let bytes = oc_defocus_band_scratch_bytes(width, wanted.count, widest)
        if scratch.count != workers.parts || scratchBytes < bytes {
            for part in scratch { part.deallocate() }
            scratch = (0..<workers.parts).map { _ in .allocate(byteCount: bytes, alignment: 64) }
            scratchBytes = bytes
        }
    }

    /// Finds each pixel's depth plane from the scene (sampled as the layer was), rows split
    /// across the workers.
    private func buildMask(_ layer: StaticLayer, scene: Scene, workers: RenderWorkers) {
        if mask == nil { mask = PageMemory.allocate(UInt8.self, count: width * height) }
        maskScene = scene
        pass = .mask
        workers.run(self)
        pass = .none
        maskScene = nil
        hasMask = true
    }

    /// Depth planes of rows `rows` into the mask.
    private func maskRows(_ rows: Range<Int>, layer: StaticLayer, scene: Scene, mask: UnsafeMutablePointer<UInt8>) {
        if maskRowsByBox(rows, layer: layer, scene: scene, mask: mask) { return }
        for y in rows {
            let sy = Optics.sceneCoordinate(pixel: y, size: height, zoom: layer.zoom)
            for x in 0..<width {
                let sx = Optics.sceneCoordinate(pixel: x, size: width, zoom: layer.zoom)
                mask[y * width + x] = UInt8(planeDistances.firstIndex(of: scene.staticDistance(x: sx, y: sy)) ?? 0)
            }
        }
    }

    /// `maskRows` for scenes whose depth is boxes (`Scene.depthBoxes`): each row filled with
    /// the background's plane, then each box's run of columns with its own, the same planes
    /// as pixel by pixel (sceneCoordinate grows with x, so a box covers one run of columns).
    /// Why: pixel by pixel in Swift a debug build spent seconds on a 4032x3024 mask (issue 30).
    /// With cards in front, the columns a card may cover (`Scene.pictureBounds`) are then
    /// found pixel by pixel, as `maskRows` would.
    private func maskRowsByBox(_ rows: Range<Int>, layer: StaticLayer, scene: Scene, mask: UnsafeMutablePointer<UInt8>) -> Bool {
        guard let depth = scene.contentDepthBoxes else { return false }
        var cards: [Scene.SceneRect] = []
        if !scene.pictures.isEmpty {
            guard let bounds = scene.pictureBounds else { return false }
            cards = bounds
        }
        let plane = { (distance: Float) in UInt8(self.planeDistances.firstIndex(of: distance) ?? 0) }
        let xs = (0..<width).map { Optics.sceneCoordinate(pixel: $0, size: width, zoom: layer.zoom) }
        let runs = depth.boxes.map { box in
            let first = xs.firstIndex { $0 >= box.minX } ?? width
            let end = max(first, xs.firstIndex { $0 >= box.maxX } ?? width)
            return (minY: box.minY, maxY: box.maxY, first: first, count: end - first, plane: plane(box.distance))
        }
        let background = plane(depth.background)
        for y in rows {
            let sy = Optics.sceneCoordinate(pixel: y, size: height, zoom: layer.zoom)
            let row = mask + y * width
            row.update(repeating: background, count: width)
            for run in runs where sy >= run.minY && sy < run.maxY && run.count > 0 {
                (row + run.first).update(repeating: run.plane, count: run.count)
            }
            for columns in Scene.cardColumns(y: sy, xs: xs, bounds: cards) {
                for x in columns { row[x] = plane(scene.staticDistance(x: xs[x], y: sy)) }
            }
        }
        return true
    }

    func run(part: Int, of parts: Int) {
        guard let layer, let mask else { return }
        let first = height * part / parts, last = height * (part + 1) / parts
        switch pass {
        case .none: break
        case .mask:
            if let maskScene { maskRows(first..<last, layer: layer, scene: maskScene, mask: mask) }
        case .band:
            guard let sharp, let planes else { return }
            oc_defocus_band(sharp, layer.samples, mask, width, height, first, last, planes, planeCount, scratch[part])
        }
    }
}
