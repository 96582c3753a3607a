import ColorScience

/// The light on the scene during one exposure: how bright it makes a diffuse white, its
/// colour, and how the sensor sees the scene under it.
///
/// With one light this is the ambient illuminant as the video stream renders it. With the
/// flash (`withFlash`) two lights add up: a surface sends the sum of what each light makes it
/// send, so the scene → camera transform is the two lights' transforms weighted by their
/// luminance on white, and the light's chromaticity is that of the summed XYZ (each light's
/// chromaticity weighted by its contribution).
struct SceneLight: Sendable {
    /// Luminance of a perfect diffuse white under all the light, cd/m² (what
    /// `Scene.luminanceScale` is for the ambient light alone).
    var luminance: Float
    /// The light's chromaticity as temperature and tint.
    var white: TemperatureTint
    /// Reflectance (linear sRGB under D65) → camera signal per unit of `luminance` (the
    /// renderer's `color`; for one light, the white's strongest channel is 1).
    var color: ColorTransform
    /// The share of `luminance` that comes from the flash, 0 ... 1.
    var flashShare: Double
    /// The camera's native response to a neutral surface under this light.
    private var neutralSignal: SIMD3<Double>

    /// The ambient light alone.
    init(ambient: TemperatureTint, luminance: Float, response: CameraResponse) {
        let transform = response.sceneToCamera(under: ambient)
        self.luminance = luminance
        white = ambient
        color = ColorTransform(transform)
        flashShare = 0
        neutralSignal = transform * SIMD3(repeating: 1)
    }

    private init(luminance: Float, white: TemperatureTint, transform: Matrix3x3, flashShare: Double) {
        self.luminance = luminance
        self.white = white
        color = ColorTransform(transform)
        self.flashShare = flashShare
        neutralSignal = transform * SIMD3(repeating: 1)
    }

    /// The ambient light plus `FlashLight` over the whole exposure (the pulse outlasts it).
    static func withFlash(ambient: TemperatureTint, luminance: Float, response: CameraResponse) -> SceneLight {
        let ambientLuminance = Double(max(luminance, 0))
        let flashLuminance = FlashLight.whiteLuminance
        let total = ambientLuminance + flashLuminance
        // Additive mixing happens in XYZ: each light's chromaticity at its luminance.
        let xyz = ambient.chromaticity.pinned.xyz(luminance: ambientLuminance)
            + FlashLight.color.chromaticity.pinned.xyz(luminance: flashLuminance)
        let share = flashLuminance / total
        let transform =
            (1 - share) * response.sceneToCamera(under: ambient) + share * response.sceneToCamera(under: FlashLight.color)
        return SceneLight(
            luminance: Float(total), white: TemperatureTint(Chromaticity(xyzOrD50: xyz)), transform: transform,
            flashShare: share)
    }

    /// The white-balance gains that make a neutral surface neutral under this light, as auto
    /// white balance would settle on them (smallest gain 1), capped at `maxGain`.
    func balancingGains(maxGain: Double) -> SIMD3<Double> {
        guard neutralSignal.min() > 0 else { return SIMD3(repeating: 1) }
        let gains = neutralSignal.max() / neutralSignal
        return gains.clamped(lowerBound: SIMD3(repeating: 1), upperBound: SIMD3(repeating: maxGain))
    }
}
