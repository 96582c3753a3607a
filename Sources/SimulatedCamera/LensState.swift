/// The lens state of one instant, for stills: where the lens was and how bright the torch,
/// so a photo is focused and lit like the video frame it was taken at.
struct LensState: Sendable {
    /// Nil for a fixed-focus lens.
    var minimumFocusDistance: Double?
    var lensPosition: Float
    var torchLevel: Float

    /// The focusing lens as `optics` (the still's field of view) sees it.
    func lens(optics: Optics, pixelPitch: Double) -> FocusLens {
        FocusLens(optics: optics, minimumFocusDistance: minimumFocusDistance, pixelPitch: pixelPitch)
    }

    /// Blur and torch light of a depth plane at `distance` in an image `width` wide at `zoom`,
    /// in a scene whose white has `luminance` cd/m².
    func effect(_ lens: FocusLens, distance: Float, width: Int, zoom: Double, luminance: Float) -> Defocus.Effect {
        Defocus.Effect(
            blurRadius: lens.blurRadius(distance: distance, lensPosition: lensPosition, width: width, zoom: zoom),
            gain: Torch.gain(distance: distance, level: torchLevel, luminance: luminance))
    }

    /// The ball blurred by its distance and lit by the torch.
    func adjust(_ disc: inout BallPainter.Disc, lens: FocusLens, width: Int, zoom: Double, luminance: Float) {
        let radius = lens.blurRadius(distance: disc.distance, lensPosition: lensPosition, width: width, zoom: zoom)
        disc.softness = max(1, 2 * radius)
        disc.color *= Torch.gain(distance: disc.distance, level: torchLevel, luminance: luminance)
    }
}
