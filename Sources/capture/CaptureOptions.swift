import Foundation

/// The options of the commands that run a camera (`frames`, `photo`, `record`, `preview`):
/// the camera, its format and frame rate, the simulated scene, exposure, white balance,
/// lens and the connection's rotation and mirroring. Declared once, used by all four.
enum CaptureOptions {
    static let camera: [OptionSpec] = [
        .value("--device", "ID", help: "Camera unique ID (see 'capture devices'; default: the default camera), or file:PATH to play a video file as a camera", validate: DeviceLookup.checkID),
        .value(
            "--preset", "NAME", help: "Session preset: \(OptionSpec.list(PresetNames.names)) (default: high; photo for 'capture photo')",
            validate: { _, text in _ = try PresetNames.preset(text) }),
        SizeValue.option("--size", help: "Use the camera format of this size instead of a preset (see 'capture formats')"),
        .decimal(
            "--fps", "N", in: 0.1...1000, help: "Frame rate; it must lie in the format's frame-rate ranges, and with --size the format of that size that supports it is chosen"),
        .value("--seed", "N", help: "Scene seed of a simulated camera, 0...\(UInt64.max) (default 1)") { option, text in
            guard StrictNumber.unsigned(text) != nil else { throw UsageError.value(option, text, allowed: "a whole number in 0...\(UInt64.max)") }
        },
        .decimal("--cct", "K", in: 1000...100_000, unit: "K", help: "Scene illuminant colour temperature of a simulated camera, 1000...100000 K (default 6500)"),
        .decimal("--tint", "T", in: -150...150, help: "Scene illuminant tint of a simulated camera, -150...150 (default 0)"),
        .value("--scene", "S", help: "Simulated scene: \(SceneChoice.names) (default chart)", validate: SceneChoice.check),
        .decimal("--lux", "E", in: 0...200_000, unit: "lux", help: "Illuminance on the simulated scene, 0...200000 lux (a white's luminance is E/pi cd/m2)"),
        .choice("--hdr", "MODE", ["on", "off", "auto"], help: "Video HDR: on, off or auto (default auto: on when the scene needs it)"),
        .choice("--color-space", "CS", ["srgb", "p3"], help: "srgb or p3 (default: the session's choice, sRGB for video)"),
        .value(
            "--wb", "MODE", help: "White balance: auto (settle, then lock), continuous (default), K[,TINT] (lock to a temperature) or R,G,B (lock to device gains)",
            validate: WhiteBalanceChoice.check),
        .choice("--exposure-mode", "M", ["locked", "auto", "continuous", "custom"], help: "Exposure: locked, auto (settle, then lock), continuous (default) or custom"),
        .value("--shutter", "T", help: "Exposure time for custom exposure: 0.004, 1/250 or 4ms (within the format's range)") { _, text in
            _ = try ExposureChoice.seconds(text)
        },
        .decimal("--iso", "N", in: 0...1_000_000, excludingLowerBound: true, help: "ISO for custom exposure (within the format's range)"),
        .decimal("--bias", "EV", in: -8...8, unit: "EV", help: "Exposure target bias, -8...8 EV"),
        .value("--focus", "F", help: "auto (focus once, then lock), continuous, locked, or a lens position 0...1 (0 nearest) to lock at", validate: LensChoice.checkFocus),
        .decimal("--zoom", "Z", in: 0...1000, excludingLowerBound: true, help: "Zoom factor, 1 ... the format's maximum"),
        .value("--torch", "T", help: "off, on, auto (lit in dim scenes) or a level in (0, 1]", validate: LensChoice.checkTorch),
        .flag("--virtual-time", help: "Simulated cameras and file decks: run as fast as the output takes frames, timestamps still spaced by the frame duration"),
        .choice("--rotation", "DEG", ["0", "90", "180", "270"], help: "Rotate delivered frames clockwise by 0, 90, 180 or 270 degrees"),
        .flag("--mirror", help: "Mirror delivered frames left to right"),
    ]

    /// `--overwrite`, for the commands that write a file.
    static let overwrite = OptionSpec.flag(
        "--overwrite", help: "Replace FILE if it exists (when the new one is complete; it keeps the old one's permissions)")
}
