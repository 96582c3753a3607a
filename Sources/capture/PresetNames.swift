import OpenCapture

/// Session presets by the short names the command line accepts.
enum PresetNames {
    static func shortName(_ preset: AVCaptureSession.Preset) -> String {
        preset.rawValue.replacingOccurrences(of: "AVCaptureSessionPreset", with: "").lowercased()
    }

    /// Accepts "high", "1280x720", "hd1280x720", "vga640x480", "iframe960x540" or Apple's full name.
    /// Throws a `UsageError` listing the names for anything else.
    static func preset(_ text: String) throws -> AVCaptureSession.Preset {
        let wanted = text.lowercased()
        for preset in AVCaptureSession.Preset.allPresets {
            let short = shortName(preset)
            if wanted == short || wanted == preset.rawValue.lowercased() { return preset }
        }
        let aliases: [String: AVCaptureSession.Preset] = [
            "cif352x288": .cif352x288, "vga640x480": .vga640x480, "hd1280x720": .hd1280x720,
            "hd1920x1080": .hd1920x1080, "hd4k3840x2160": .hd4K3840x2160, "4k": .hd4K3840x2160,
        ]
        if let preset = aliases[wanted] { return preset }
        throw UsageError.value("--preset", text, allowed: OptionSpec.list(names))
    }

    /// The short names, as the help and messages list them.
    static var names: [String] { AVCaptureSession.Preset.allPresets.map(shortName) }
}
