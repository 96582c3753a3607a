import CaptureCore
import Foundation

/// The back cameras' torch: the flash LED lit continuously, a small light at the camera.
///
/// At level ℓ it is a source of luminous intensity ℓ·`intensity` on axis, so an object at
/// distance d receives E = ℓ·I/d² lux (inverse square) and a diffuse white there gains
/// luminance E/π. At full level: the ball at 0.5 m gets 240 lx (+76 cd/m² on white), the
/// chart at 1 m 60 lx (+19), the wall at 2.5 m 9.6 lx (+3): in the default bright room
/// (200 cd/m²) a small lift on near things, in a dim one (5 cd/m²) near things are lit
/// many times more than the wall. The light takes the room light's colour (the torch's
/// 5500 K tint is not modelled). The light falls evenly across the frame (no beam shape).
///
/// `.auto` lights the torch in dim scenes: when the scene's white is under 20 cd/m², and
/// off again above 40 (hysteresis). Heat limits the level (`TorchAvailability`).
struct Torch: Sendable {
    /// Luminous intensity at full level, candela (a phone torch's ~50 lm in a 60° cone).
    static let intensity = 60.0
    /// Auto mode switches on below and off above these luminances of the scene's white, cd/m².
    static let autoOnLuminance: Float = 20
    static let autoOffLuminance: Float = 40
    /// The level `.auto` lights at.
    static let autoLevel: Float = 1

    var mode = TorchControl.off
    /// Whether auto mode has it lit.
    private(set) var autoLit = false

    mutating func apply(_ control: TorchControl) {
        mode = control
        if control != .auto { autoLit = false }
    }

    /// The level for a frame of a scene whose white has `luminance` cd/m², at system
    /// pressure `pressureLevel`.
    mutating func level(luminance: Float, pressureLevel: Int) -> Float {
        let available = TorchAvailability.maximumLevel(pressureLevel: pressureLevel)
        switch mode {
        case .off: return 0
        case .on(let level): return min(level, available)
        case .auto:
            if autoLit && luminance > Torch.autoOffLuminance { autoLit = false }
            if !autoLit && luminance < Torch.autoOnLuminance { autoLit = true }
            return autoLit ? min(Torch.autoLevel, available) : 0
        }
    }

    /// How much brighter an object at `distance` metres is with the torch at `level`, in a
    /// scene whose white has `luminance` cd/m².
    static func gain(distance: Float, level: Float, luminance: Float) -> Float {
        guard level > 0 else { return 1 }
        let added = Double(level) * intensity / Double(distance * distance) / Double.pi
        return Float(1 + added / Double(max(luminance, 0.01)))
    }
}
