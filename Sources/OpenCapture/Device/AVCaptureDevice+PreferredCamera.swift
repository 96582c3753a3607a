import Foundation

extension AVCaptureDevice {
    class var systemPreferredCameraBacking: AVCaptureDevice? {
        PreferredCameraHistory.shared.firstConnected() ?? AVCaptureDevice.default(for: .video)
    }

    class var userPreferredCameraBacking: AVCaptureDevice? {
        get { PreferredCameraHistory.shared.firstConnected() ?? AVCaptureDevice.default(for: .video) }
        set {
            guard let newValue else { return }
            DeviceClassProperties.shared.settingPreference { PreferredCameraHistory.shared.prefer(newValue.uniqueID) }
        }
    }
}

/// The unique IDs of the cameras set as `userPreferredCamera`, newest first.
final class PreferredCameraHistory: Sendable {
    static let shared = PreferredCameraHistory()
    static let capacity = 8
    private let ids = Mutex<[String]>([])

    func prefer(_ uniqueID: String) {
        ids.withLock { list in
            list.removeAll { $0 == uniqueID }
            list.insert(uniqueID, at: 0)
            if list.count > Self.capacity { list.removeLast() }
        }
    }

    /// The newest camera in the history that is connected now.
    func firstConnected() -> AVCaptureDevice? {
        for id in ids.withLock({ $0 }) {
            if let device = DeviceRegistry.current.device(uniqueID: id) { return device }
        }
        return nil
    }
}
