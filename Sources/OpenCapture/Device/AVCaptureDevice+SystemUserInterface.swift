import Foundation

/// The system panels an app may open for the user (iOS 15, AVCaptureDevice.h). iOS shows
/// its Control Center module; Linux has no such system UI, so the request is handed to the
/// host instead: `showSystemUserInterface(_:)` posts
/// `AVCaptureDevice.systemUserInterfaceRequestedNotification` (Linux addition) for a
/// desktop shell or the app's own settings view to present. Like Apple's, the call returns
/// at once.
extension AVCaptureDevice {
    /// A system user interface `showSystemUserInterface(_:)` can open.
    public enum SystemUserInterface: Int, Sendable {
        /// Video effects (Center Stage, Portrait, Studio Light, reactions).
        case videoEffects = 1
        /// Microphone modes (standard, voice isolation, wide spectrum).
        case microphoneModes = 2
    }

    /// Posted by `showSystemUserInterface(_:)` (Linux addition), on the caller's thread,
    /// with the interface asked for under `systemUserInterfaceKey`. The object is nil.
    public static let systemUserInterfaceRequestedNotification = Notification.Name("OpenCaptureSystemUserInterfaceRequestedNotification")

    /// The `userInfo` key of `systemUserInterfaceRequestedNotification`: an
    /// `AVCaptureDevice.SystemUserInterface` (Linux addition).
    public static let systemUserInterfaceKey = "OpenCaptureSystemUserInterface"

    class func showSystemUserInterfaceBacking(_ systemUserInterface: SystemUserInterface) {
        NotificationCenter.default.post(
            name: systemUserInterfaceRequestedNotification, object: nil, userInfo: [systemUserInterfaceKey: systemUserInterface])
    }
}
