import Foundation
import OpenCapture

/// Finds cameras by the names people type.
enum DeviceLookup {
    static var all: [AVCaptureDevice] {
        AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera, .builtInUltraWideCamera, .builtInTelephotoCamera, .external],
            mediaType: .video, position: .unspecified
        ).devices
    }

    /// The microphones: the simulated one and the ALSA capture devices.
    static var microphones: [AVCaptureDevice] {
        AVCaptureDevice.DiscoverySession(deviceTypes: [.microphone], mediaType: .audio, position: .unspecified).devices
    }

    /// Checks how a device ID is written: not empty, no control characters, no leading or
    /// trailing spaces (the camera itself is looked up later, by `device(_:)`). Spaces inside
    /// are allowed: libcamera's camera IDs have them ("libcamera:platform/vimc.0 Sensor B").
    @Sendable static func checkID(_ option: String, _ text: String) throws {
        guard !text.isEmpty, text.trimmingCharacters(in: .whitespaces) == text,
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw UsageError.value(option, text, allowed: "a camera unique ID (see 'capture devices')")
        }
    }

    /// The device with that unique ID, or the default camera when `id` is nil.
    static func device(_ id: String?) throws -> AVCaptureDevice {
        guard let id else {
            guard let device = AVCaptureDevice.default(for: .video) else { throw UsageError("no camera found") }
            return device
        }
        if id.hasPrefix("file:") { return try deck(id) }
        if let device = AVCaptureDevice(uniqueID: id) { return device }
        let known = all.map(\.uniqueID).joined(separator: ", ")
        throw UsageError("unknown device \(ErrorText.quoted(id)) (devices: \(known); see 'capture devices')")
    }

    /// The file deck `file:PATH` names (a relative path is taken from the working directory);
    /// errors name `option`, the flag the path came with.
    static func deck(_ id: String, option: String = "--device") throws -> AVCaptureDevice {
        let path = String(id.dropFirst("file:".count))
        guard !path.isEmpty else { throw UsageError("--device file: needs a path, as in file:clip.mp4") }
        do {
            return try AVCaptureDevice.fileDeck(url: URL(fileURLWithPath: path))
        } catch {
            throw UsageError("\(option) \(ErrorText.quoted(option == "--device" ? id : path)): \(ErrorText.line(error))")
        }
    }

    static func positionName(_ position: AVCaptureDevice.Position) -> String {
        switch position {
        case .back: "back"
        case .front: "front"
        case .unspecified: "unspecified"
        }
    }

    static func typeName(_ type: AVCaptureDevice.DeviceType) -> String {
        type.rawValue.replacingOccurrences(of: "AVCaptureDeviceType", with: "")
    }
}
