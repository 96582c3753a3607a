import ColorScience

/// The back cameras' LED flash: how much light it puts on the scene, and of what colour.
///
/// The model, kept deliberately simple:
/// - the scene is a flat matte subject facing the camera at `subjectDistance` (1.5 m), lit
///   evenly by the flash (no falloff across the frame, no shadows);
/// - the flash is a small source of luminous intensity `intensity` on axis, so by the
///   inverse-square law it puts E_f = I / d² lux on the subject: 111 lx at 1.5 m;
/// - like a phone's LED flash (and unlike a xenon tube's millisecond burst) the main pulse
///   lasts `pulseDuration`, and a flash still's exposure is kept within it, so an exposure
///   of t seconds collects E_f·t lux·s from the flash on top of the ambient E_a·t: during
///   the exposure the flash simply adds to the room light;
/// - a perfect diffuse white under illuminance E has luminance E / π, so the flash raises
///   the white's luminance (`Scene.luminanceScale`) by L_f = E_f / π ≈ 35 cd/m². In the
///   default bright room (200 cd/m²) that is a small extra; in a dim room (5 cd/m²) the
///   flash gives seven times the ambient light, and in a dark one it is nearly all of it;
/// - its colour is `color`, 5500 K on the Planckian locus (a "white" phone flash); the
///   mixture with the ambient light is `SceneLight.withFlash`.
///
/// In guide-number terms (ISO 100 and the incident-meter constant C = 250 lx·s, N = GN / d
/// when E·t = C·N² / S): at 1/30 s the flash delivers 3.7 lx·s at 1.5 m, GN ≈ 1.8 m, about
/// what a phone's LED flash reaches.
///
/// Every surface reflects the flash, the white marker's light panel included (the scene
/// has no notion of emitters), so the marker stays the brightest thing in a flash photo.
enum FlashLight {
    /// Luminous intensity on axis during the main pulse, candela.
    static let intensity = 250.0
    /// The subject's distance from the camera, metres.
    static let subjectDistance = 1.5
    /// How long the main pulse lasts, seconds; a flash still's exposure is at most this.
    static let pulseDuration = 1.0 / 15
    /// The flash's colour.
    static let color = TemperatureTint(temperature: 5500, tint: 0)

    /// Illuminance on the subject, lux: E = I / d².
    static var subjectIlluminance: Double { intensity / (subjectDistance * subjectDistance) }

    /// Luminance of a perfect diffuse white lit by the flash alone, cd/m²: L = E / π.
    static var whiteLuminance: Double { subjectIlluminance / Double.pi }
}
