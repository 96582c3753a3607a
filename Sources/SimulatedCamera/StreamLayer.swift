import CaptureCore
import ColorScience

/// The stream's static layer as its frames show it (rasterised, blurred and lit by the
/// lens), lent to a still taken at the same view, so the still does not rasterise and blur
/// the same layer again: at 4032x3024 that was two thirds of a photo's time (issue 30).
///
/// The capture thread marks the layer lent (`StaticLayer.isLent`) before the job leaves
/// it, so from then on neither the stream nor the still writes it: a writer makes a new
/// layer. The still uses it only if it would have made exactly this layer (`serves`).
struct StreamLayer: @unchecked Sendable {
    /// Never written again (see `StaticLayer.isLent`).
    let layer: StaticLayer
    /// The optics and scene it was rasterised for.
    let optics: Optics
    let scene: Scene
    /// Defocus and torch in force on it, one per plane of `planeDistances`; empty: sharp and unlit.
    let effects: [Defocus.Effect]
    let planeDistances: [Float]

    /// Whether a still `width`x`height` at `zoom`, with `optics` and `color`, of `scene`,
    /// whose lens gives each plane `effect(distance)`, would render from exactly this layer:
    /// the same view, light and scene, and effects the stream would not redraw for
    /// (`Defocus.Effect.isIndistinguishable`, the rule by which frames show them).
    func serves(
        width: Int, height: Int, zoom: Double, optics: Optics, color: ColorTransform, scene other: Scene,
        effect: (Float) -> Defocus.Effect
    ) -> Bool {
        guard layer.width == width, layer.height == height, layer.zoom == zoom, layer.color == color,
            self.optics == optics, other.seed == scene.seed, other.content == scene.content,
            other.pictures == scene.pictures, other.staticDistances == planeDistances
        else { return false }
        let wanted = planeDistances.map(effect)
        if effects.isEmpty { return wanted.allSatisfy { $0 == .identity } }
        return effects.count == wanted.count
            && zip(wanted, effects).allSatisfy { $0 == $1 || $0.isIndistinguishable(from: $1) }
    }
}
