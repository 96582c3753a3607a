/// Illuminance and luminance of the simulated scenes.
///
/// A matte (Lambertian) surface of reflectance ρ under illuminance E (lux) has luminance
/// L = E·ρ/π cd/m², so the scene's `luminanceScale`, the luminance of a perfect white
/// (ρ = 1), is E/π: 200 cd/m², the default, is 628 lux (a bright office). Light sources in
/// view (the chart's marker, the hdr scene's sky) are relative radiance above 1 and scale
/// with it.
package enum SceneLighting {
    /// cd/m² of a perfect white under `lux`.
    package static func whiteLuminance(illuminance lux: Float) -> Float {
        max(0, lux) / Float.pi
    }

    /// The illuminance (lux) under which a perfect white has `luminance` cd/m².
    package static func illuminance(whiteLuminance luminance: Float) -> Float {
        luminance * Float.pi
    }

    /// The light each kind of scene gets when it is chosen (programs may change it after):
    /// 628 lux (200 cd/m² white, the chart's historic level), a dim living room at 5 lux,
    /// and 150 lux on the interior of the hdr scene (a room lit only through its window).
    package static func defaultIlluminance(of content: SceneContent) -> Float {
        switch content {
        case .lowlight: 5
        case .hdr: 150
        case .chart, .flat, .motion, .image: illuminance(whiteLuminance: 200)
        }
    }
}
