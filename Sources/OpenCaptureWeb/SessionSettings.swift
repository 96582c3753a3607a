import Foundation
import OpenCapture

/// The session-level settings `POST /control` takes, each alone: `device` (a camera's
/// `uniqueID`, as `/status` lists them under `cameras`: the session's camera input is
/// replaced by that camera's, and the server's output follows it) and `sessionPreset`
/// (Apple's raw value or its short form, e.g. `hd1280x720`). Both are applied between
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
    static func named(in body: Data) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: body), let settings = object as? [String: Any],
            settings.keys.contains(where: names.contains), settings.count == 1
        else { return nil }
        return settings
    }

    /// Applies the one session setting in `settings`, or throws a refusal having changed
    /// nothing.
    static func apply(_ settings: [String: Any], to session: AVCaptureSession) throws(CameraControls.Refusal) {
        guard settings.count == 1, let (name, value) = settings.first else {
            throw .init(reason: "device and sessionPreset are each given alone")
        }
        guard let text = value as? String else { throw .init(reason: "\(name) must be a string") }
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

    private static func setPreset(_ text: String, in session: AVCaptureSession) throws(CameraControls.Refusal) {
        let wanted = text.lowercased()
        let short = { (preset: AVCaptureSession.Preset) in preset.rawValue.replacingOccurrences(of: "AVCaptureSessionPreset", with: "").lowercased() }
        let matches = { (preset: AVCaptureSession.Preset) in
            let name = short(preset)
            return wanted == name || wanted == preset.rawValue.lowercased() || wanted.hasSuffix(name) && name.contains("x")
        }
        guard let preset = AVCaptureSession.Preset.allPresets.first(where: matches) else {
            throw .init(reason: "sessionPreset must be one of \(AVCaptureSession.Preset.allPresets.map(short).joined(separator: ", ")), not '\(text)'")
        }
        guard session.canSetSessionPreset(preset) else { throw .init(reason: "this camera cannot capture with preset \(short(preset))") }
        session.beginConfiguration()
        session.sessionPreset = preset
        session.commitConfiguration()
    }
}
