import Foundation
import MediaIO
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

    /// The largest picture file `--scene image:` reads.
    static let largestPicture = 256 << 20

    init(_ args: Arguments, device: AVCaptureDevice) throws {
        if args.value("--scene") != nil || args.value("--lux") != nil, device.simulation == nil {
            throw UsageError("--scene and --lux set a simulated scene; \(device.uniqueID) is a real camera")
        }
        if let text = args.value("--scene") {
            let scene = try Self.scene(text)
            self.scene = scene
            if case .image(let path) = scene, let simulation = device.simulation {
                do { try simulation.setScene(scene) } catch {
                    // The scene's error names the file already ("'P': bad PNG ...").
                    let reason = ErrorText.line(error)
                    let named = reason.hasPrefix("'\(path)'") ? reason : "\(ErrorText.quoted(path)): \(reason)"
                    throw UsageError("--scene image: \(named)")
                }
                sceneIsSet = true
            }
        }
        lux = args.decimal("--lux").map { Float($0) }
    }

    /// Checks how a `--scene` value is written; the picture of `image:` is read later, by
    /// `scene(_:)`.
    @Sendable static func check(_ option: String, _ text: String) throws {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let argument = parts.count > 1 ? parts[1] : nil
        switch (parts[0].lowercased(), argument) {
        case ("chart", nil), ("lowlight", nil), ("hdr", nil), ("motion", nil): return
        case ("flat", let value?):
            guard StrictNumber.decimal(value, in: 0...1) != nil else {
                throw UsageError("--scene flat:<reflectance> needs a reflectance in 0...1, not \(ErrorText.quoted(value))")
            }
        case ("flat", nil): throw UsageError("--scene flat needs a reflectance, as in flat:0.18")
        case ("image", let path?) where !path.isEmpty: try PathValue.check("--scene image:", path)
        case ("image", _): throw UsageError("--scene image needs a file, as in image:photo.png")
        default: throw UsageError.value(option, text, allowed: "one of \(names)")
        }
    }

    /// "hdr", "flat:0.18", "image:photo.png" (checked by `check`) as a scene; a picture must
    /// be a readable regular file of sane size, and is decoded when set, in `init`, so a bad
    /// file fails before the camera starts.
    static func scene(_ text: String) throws -> AVCaptureDevice.Simulation.Scene {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        switch parts[0].lowercased() {
        case "lowlight": return .lowlight
        case "hdr": return .hdr
        case "motion": return .motion
        case "flat": return .flat(reflectance: Float(StrictNumber.decimal(parts[1]) ?? 0))
        case "image":
            let path = parts[1]
            // Only a regular file of sane size: a FIFO would block the read and /dev/zero never end.
            var status = stat()
            guard stat(path, &status) == 0 else {
                throw UsageError("--scene image: cannot read \(ErrorText.quoted(path)): \(String(cString: strerror(errno)))")
            }
            guard status.st_mode & S_IFMT == S_IFREG else { throw UsageError("--scene image: \(ErrorText.quoted(path)) is not a regular file") }
            guard status.st_size <= largestPicture else {
                throw UsageError("--scene image: \(ErrorText.quoted(path)) is larger than \(largestPicture >> 20) MB")
            }
            guard access(path, R_OK) == 0 else {
                throw UsageError("--scene image: cannot read \(ErrorText.quoted(path)): \(String(cString: strerror(errno)))")
            }
            return .image(path: path)
        default: return .chart
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
