import CRenderKernels
import CaptureCore
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
/// still camera renders as fast as without it. The work is split across the renderer's
/// workers: rows for the horizontal pass, columns for the vertical one. The passes are C
/// (`oc_defocus_rows`, `oc_defocus_columns`, `oc_defocus_copy` in CRenderKernels): every
/// lens move of an autofocus search re-blurs the layer, which must fit in a frame's time.
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
    }

    /// 2·Σ k² for k = 1 ... n.
    static func sumOfSquares(_ n: Int) -> Double { Double(n * (n + 1) * (2 * n + 1)) / 3 }

    /// Variance of the box with `taps` whole taps each side and end taps of weight `fraction`.
    static func variance(taps n: Int, fraction f: Double) -> Double {
        let edge = Double((n + 1) * (n + 1))
        return (sumOfSquares(n) + 2 * f * edge) / (Double(2 * n + 1) + 2 * f)
    }

    private enum Pass { case none, mask, copy, horizontal, vertical }

    private weak var layer: StaticLayer?
    private var width = 0
    private var height = 0
    /// The sharp, unlit layer; valid when `hasSharp`.
    private var sharp: UnsafeMutablePointer<UInt16>?
    private var hasSharp = false
    /// Depth plane of each pixel, and each plane's distance and row span.
    private var mask: UnsafeMutablePointer<UInt8>?
    private var hasMask = false
    /// The scene the mask is being built from (set during the mask pass).
    private var maskScene: Scene?
    /// The scene's static depths (`Scene.staticDistances`), as of the last mask.
    private(set) var planeDistances = Scene.chartPlanes
    private var planeRows: [Range<Int>] = []
    private var planeColumns: [Range<Int>] = []
    /// Horizontal-pass output (bfloat16, like the layer).
    private var temporary: UnsafeMutablePointer<UInt16>?
    /// Effects in force on the layer now, one per plane (empty: the layer is sharp and unlit).
    private var applied: [Effect] = []
    /// The effects asked for this time, one per plane.
    private var wanted = [Effect](repeating: .identity, count: Scene.chartPlanes.count)
    // The pass the workers run and its plane.
    private var pass = Pass.none
    private var plane = 0
    private var effect = Effect.identity
    private var sums: [UnsafeMutablePointer<Float>] = []
    /// Per worker: the horizontal pass's rows, decoded and padded by repeating their ends.
    private var padded: [UnsafeMutableBufferPointer<Float>] = []

    deinit { release() }

    private func release() {
        // The big buffers are page-mapped (`PageMemory`): freed, they go back to the kernel.
        if let sharp { PageMemory.deallocate(sharp, count: 3 * width * height) }
        if let mask { PageMemory.deallocate(mask, count: width * height) }
        if let temporary { PageMemory.deallocate(temporary, count: 3 * width * height) }
        for sum in sums { sum.deallocate() }
        for row in padded { row.deallocate() }
        padded = []
        sharp = nil
        mask = nil
        temporary = nil
        sums = []
    }

    /// Brings `layer` to the effects `effect(distance)` gives each plane. `refilled` says the
    /// layer was just rasterised (sharp and unlit again). Returns whether pixels changed.
    @discardableResult
    func update(
        _ layer: StaticLayer, refilled: Bool, scene: Scene, workers: RenderWorkers, effect effectOf: (Float) -> Effect
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
        if !hasMask { buildMask(layer, scene: scene, workers: workers) }
        if !hasSharp {
            // The layer is sharp and unlit now (refilled or never changed): keep a copy.
            let count = layer.rowStride * height
            if sharp == nil { sharp = PageMemory.allocate(UInt16.self, count: count) }
            sharp!.update(from: layer.samples, count: count)
            hasSharp = true
        }
        if temporary == nil, wanted.contains(where: \.blurs) {
            temporary = PageMemory.allocate(UInt16.self, count: layer.rowStride * height)
        }
        if sums.count != workers.parts {
            for sum in sums { sum.deallocate() }
            for row in padded { row.deallocate() }
            sums = (0..<workers.parts).map { _ in .allocate(capacity: 3 * width) }
            padded = []
        }
        // Room for the widest box, made before the workers run (they only read the array).
        let needed = oc_defocus_scratch_count(width, wanted.map(\.taps).max() ?? 0)
        if padded.count != workers.parts || padded[0].count < needed {
            for row in padded { row.deallocate() }
            padded = (0..<workers.parts).map { _ in .allocate(capacity: needed) }
        }
        for (index, planeEffect) in wanted.enumerated() {
            plane = index
            effect = planeEffect
            if planeEffect.blurs {
                pass = .horizontal
                workers.run(self)
                pass = .vertical
            } else {
                pass = .copy
            }
            workers.run(self)
        }
        pass = .none
        applied = isIdentity ? [] : wanted
        return true
    }

    /// Finds each pixel's depth plane from the scene (sampled as the layer was), rows split
    /// across the workers, then each plane's bounding box.
    private func buildMask(_ layer: StaticLayer, scene: Scene, workers: RenderWorkers) {
        if mask == nil { mask = PageMemory.allocate(UInt8.self, count: width * height) }
        maskScene = scene
        pass = .mask
        workers.run(self)
        pass = .none
        maskScene = nil
        var first = [Int](repeating: height, count: planeDistances.count)
        var last = [Int](repeating: 0, count: planeDistances.count)
        var left = [Int](repeating: width, count: planeDistances.count)
        var right = [Int](repeating: 0, count: planeDistances.count)
        for y in 0..<height {
            let row = mask! + y * width
            for x in 0..<width {
                let index = Int(row[x])
                first[index] = min(first[index], y)
                last[index] = max(last[index], y + 1)
                left[index] = min(left[index], x)
                right[index] = max(right[index], x + 1)
            }
        }
        planeRows = zip(first, last).map { $0 < $1 ? $0..<$1 : 0..<0 }
        planeColumns = zip(left, right).map { $0 < $1 ? $0..<$1 : 0..<0 }
        hasMask = true
    }

    /// Depth planes of rows `rows` into the mask.
    private func maskRows(_ rows: Range<Int>, layer: StaticLayer, scene: Scene, mask: UnsafeMutablePointer<UInt8>) {
        for y in rows {
            let sy = Optics.sceneCoordinate(pixel: y, size: height, zoom: layer.zoom)
            for x in 0..<width {
                let sx = Optics.sceneCoordinate(pixel: x, size: width, zoom: layer.zoom)
                mask[y * width + x] = UInt8(planeDistances.firstIndex(of: scene.staticDistance(x: sx, y: sy)) ?? 0)
            }
        }
    }

    func run(part: Int, of parts: Int) {
        guard let layer, let mask else { return }
        if pass == .mask, let maskScene {
            return maskRows(height * part / parts..<height * (part + 1) / parts, layer: layer, scene: maskScene, mask: mask)
        }
        guard let sharp else { return }
        let rows = planeRows[plane]
        let reach = effect.taps + 1
        switch pass {
        case .none, .mask: break
        case .copy:
            let span = rows.count
            let first = rows.lowerBound + span * part / parts
            let last = rows.lowerBound + span * (part + 1) / parts
            oc_defocus_copy(sharp, layer.samples, mask, width, first, last, effect.gain, plane)
        case .horizontal:
            // Rows the vertical pass reads for this plane.
            let lower = max(0, rows.lowerBound - reach), upper = min(height, rows.upperBound + reach)
            let span = upper - lower
            let first = lower + span * part / parts
            let last = lower + span * (part + 1) / parts
            guard let temporary, first < last else { return }
            let offset = first * layer.rowStride
            oc_defocus_rows(
                sharp + offset, temporary + offset, width, last - first, effect.taps, effect.fraction,
                padded[part].baseAddress!)
        case .vertical:
            guard let temporary else { return }
            let span = planeColumns[plane]
            let first = span.lowerBound + span.count * part / parts, last = span.lowerBound + span.count * (part + 1) / parts
            oc_defocus_columns(
                temporary, layer.samples, mask, width, height, first, last, rows.lowerBound, rows.upperBound, effect.taps,
                effect.fraction, effect.gain, plane, sums[part])
        }
    }
}
