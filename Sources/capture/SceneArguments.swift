import Foundation
import OpenCapture

/// What `--scene` and `--lux` ask of a simulated camera, validated before it starts.
struct SceneChoice {
    var scene: AVCaptureDevice.Simulation.Scene?
    var lux: Float?
    /// A picture is set on the camera while the arguments are checked: decoding it is both
    /// the check and the work, so it is done once (it used to be decoded here to check it
    /// and again when set).
    private var sceneIsSet = false

    static let names = "chart, flat:<reflectance 0...1>, lowlight, hdr, motion, image:<file.png|file.jpg>"

    init(_ args: Arguments, device: AVCaptureDevice) throws {
        if args.value("--scene") != nil || args.value("--lux") != nil, device.simulation == nil {
            throw UsageError("--scene and --lux set a simulated scene; \(device.uniqueID) is a real camera")
        }
        if let text = args.value("--scene") {
            let scene = try Self.scene(text)
            self.scene = scene
            if case .image = scene, let simulation = device.simulation {
                do { try simulation.setScene(scene) } catch { throw UsageError("--scene image: \(error)") }
                sceneIsSet = true
            }
        }
        if let text = args.value("--lux") {
            guard let value = Float(text), value.isFinite, value >= 0, value <= 200_000 else {
                throw UsageError("--lux must be an illuminance in 0...200000 lux, not '\(text)'")
            }
            lux = value
        }
    }

    /// "hdr", "flat:0.18", "image:photo.png" as a scene (a picture is decoded when set, in
    /// `init`, so a bad file fails before the camera starts).
    static func scene(_ text: String) throws -> AVCaptureDevice.Simulation.Scene {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts.first?.lowercased() ?? ""
        let argument = parts.count > 1 ? parts[1] : nil
        switch (name, argument) {
        case ("chart", nil): return .chart
        case ("lowlight", nil): return .lowlight
        case ("hdr", nil): return .hdr
        case ("motion", nil): return .motion
        case ("flat", let value?):
            guard let reflectance = Float(value), reflectance.isFinite, (0...1).contains(reflectance) else {
                throw UsageError("--scene flat:<reflectance> needs a reflectance in 0...1, not '\(value)'")
            }
            return .flat(reflectance: reflectance)
        case ("flat", nil): throw UsageError("--scene flat needs a reflectance, as in flat:0.18")
        case ("image", let path?) where !path.isEmpty:
            return .image(path: path)
        case ("image", _): throw UsageError("--scene image needs a file, as in image:photo.png")
        default: throw UsageError("unknown scene '\(text)' (scenes: \(names))")
        }
    }

    /// Sets the scene, then the light (the scene's default unless --lux was given).
    func apply(to device: AVCaptureDevice) throws {
        guard let simulation = device.simulation else { return }
        if let scene, !sceneIsSet {
            do { try simulation.setScene(scene) } catch { throw UsageError("--scene: \(error)") }
        }
        if let lux { simulation.sceneIlluminance = lux }
    }
}
