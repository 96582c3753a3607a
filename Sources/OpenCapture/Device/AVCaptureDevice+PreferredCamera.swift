import Foundation

extension AVCaptureDevice {
    /// The camera the system prefers for video and photos: `userPreferredCamera` when one
    /// was set and is connected, else the default video camera (the back wide-angle camera).
    /// `nil` only with no camera at all. Read-only; it changes when cameras come and go.
    public class var systemPreferredCamera: AVCaptureDevice? {
        PreferredCameraHistory.shared.firstConnected() ?? AVCaptureDevice.default(for: .video)
    }

    /// The camera the user prefers. The process keeps a short history (the last 8 set);
    /// reading it gives the most recently set one still connected, else the system's best
    /// camera, so it always names a present device (nil only with no camera). Setting `nil`
    /// has no effect, as Apple documents. Both class properties are key-value observable
    /// (`AVCaptureDevice.self.observe(\.systemPreferredCamera, ...)`).
    public class var userPreferredCamera: AVCaptureDevice? {
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
            if let device = DeviceRegistry.shared.device(uniqueID: id) { return device }
        }
        return nil
    }
}
