import OpenCapture

/// Session presets by the short names the command line accepts.
enum PresetNames {
    static func shortName(_ preset: AVCaptureSession.Preset) -> String {
        preset.rawValue.replacingOccurrences(of: "AVCaptureSessionPreset", with: "").lowercased()
    }

    /// Accepts "high", "1280x720", "hd1280x720", "vga640x480", "iframe960x540" or Apple's full name.
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
        let names = AVCaptureSession.Preset.allPresets.map(shortName).joined(separator: ", ")
        throw UsageError("unknown preset '\(text)' (presets: \(names))")
    }
}
