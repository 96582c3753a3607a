import Foundation
import OpenCapture

/// The session-level settings `POST /control` takes, each alone: `device` (a camera's
/// `uniqueID`, as `/status` lists them under `cameras`: the session's camera input is
/// replaced by that camera's, and the server's output follows it) and `sessionPreset`
/// (the Swift name, e.g. `hd1280x720`, Apple's raw value, `AVCaptureSessionPreset1280x720`,
/// or the raw value without its prefix, `1280x720`, as `/status` lists them; matched whole,
/// in any case). Both are applied between
/// `beginConfiguration()` and `commitConfiguration()`, as apps switch cameras.
enum SessionSettings {
    static let names = ["device", "sessionPreset"]

    /// The cameras a page can switch between.
    static var cameras: [AVCaptureDevice] {
        AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera, .builtInUltraWideCamera, .builtInTelephotoCamera, .external],
            mediaType: .video, position: .unspecified
        ).devices
    }

    /// The settings object of a body that names a session setting, else nil (a camera
    /// setting, or a body `CameraControls` refuses with its reason).
    static func named(in body: Data) -> [String: JSONValue]? {
        guard let settings = JSONValue.object(in: body), settings.keys.contains(where: names.contains), settings.count == 1 else { return nil }
        return settings
    }

    /// Applies the one session setting in `settings`, or throws a refusal having changed
    /// nothing.
    static func apply(_ settings: [String: JSONValue], to session: AVCaptureSession) throws(CameraControls.Refusal) {
        guard settings.count == 1, let (name, value) = settings.first else {
            throw .init(reason: "device and sessionPreset are each given alone")
        }
        guard let text = value.string else {
            let allowed = name == "device" ? "a camera's uniqueID: \(cameras.map(\.uniqueID).joined(separator: ", "))" : presetNames
            throw .init(reason: "\(name) must be a string, \(allowed)")
        }
        switch name {
        case "device": try switchCamera(to: text, in: session)
        default: try setPreset(text, in: session)
        }
    }

    private static func switchCamera(to uniqueID: String, in session: AVCaptureSession) throws(CameraControls.Refusal) {
        guard let camera = cameras.first(where: { $0.uniqueID == uniqueID }) else {
            throw .init(reason: "no camera has uniqueID '\(uniqueID)'; cameras: \(cameras.map(\.uniqueID).joined(separator: ", "))")
        }
        let current = session.inputs.compactMap { $0 as? AVCaptureDeviceInput }.filter { $0.device.hasMediaType(.video) }
        if current.contains(where: { $0.device.uniqueID == uniqueID }) { return }
        let input: AVCaptureDeviceInput
        do {
            input = try AVCaptureDeviceInput(device: camera)
        } catch {
            throw .init(reason: "\(camera.localizedName) cannot be opened: \(error)")
        }
        session.beginConfiguration()
        current.forEach(session.removeInput)
        let added = session.canAddInput(input)
        if added {
            session.addInput(input)
        } else {
            current.forEach(session.addInput)
        }
        session.commitConfiguration()
        if !added { throw .init(reason: "the session cannot take \(camera.localizedName) with its preset and outputs") }
    }

    /// Swift's names of the presets (`AVCaptureSession.Preset.hd1280x720`).
    private static let swiftNames: [(String, AVCaptureSession.Preset)] = [
        ("photo", .photo), ("high", .high), ("medium", .medium), ("low", .low), ("cif352x288", .cif352x288), ("vga640x480", .vga640x480),
        ("hd1280x720", .hd1280x720), ("hd1920x1080", .hd1920x1080), ("hd4K3840x2160", .hd4K3840x2160), ("iFrame960x540", .iFrame960x540),
        ("iFrame1280x720", .iFrame1280x720), ("inputPriority", .inputPriority),
    ]

    private static let presetNames = "one of \(swiftNames.map(\.0).joined(separator: ", ")) (or Apple's raw value, e.g. AVCaptureSessionPreset1280x720)"

    /// The preset a whole name stands for: a Swift name, a raw value, or a raw value without
    /// its prefix; case aside, nothing is matched in part.
    static func preset(named text: String) -> AVCaptureSession.Preset? {
        let wanted = text.lowercased()
        if let preset = swiftNames.first(where: { $0.0.lowercased() == wanted })?.1 { return preset }
        return AVCaptureSession.Preset.allPresets.first { preset in
            let raw = preset.rawValue.lowercased()
            return wanted == raw || "avcapturesessionpreset" + wanted == raw
        }
    }

    private static func setPreset(_ text: String, in session: AVCaptureSession) throws(CameraControls.Refusal) {
        guard let preset = preset(named: text) else { throw .init(reason: "sessionPreset must be \(presetNames), not '\(text)'") }
        let short = swiftNames.first { $0.1 == preset }?.0 ?? preset.rawValue
        guard session.canSetSessionPreset(preset) else { throw .init(reason: "this camera cannot capture with preset \(short)") }
        session.beginConfiguration()
        session.sessionPreset = preset
        session.commitConfiguration()
    }
}
