import Foundation

// Notification names in both spellings Apple has used: the iOS 17 SDK's
// `NSNotification.Name.AVCaptureSessionDidStartRunning` and the iOS 18 SDK's
// `AVCaptureSession.didStartRunningNotification`. Both are the same name.

extension NSNotification.Name {
    public static let AVCaptureSessionRuntimeError = Notification.Name("AVCaptureSessionRuntimeErrorNotification")
    public static let AVCaptureSessionDidStartRunning = Notification.Name("AVCaptureSessionDidStartRunningNotification")
    public static let AVCaptureSessionDidStopRunning = Notification.Name("AVCaptureSessionDidStopRunningNotification")
    public static let AVCaptureSessionWasInterrupted = Notification.Name("AVCaptureSessionWasInterruptedNotification")
    public static let AVCaptureSessionInterruptionEnded = Notification.Name("AVCaptureSessionInterruptionEndedNotification")
    public static let AVCaptureDeviceWasConnected = Notification.Name("AVCaptureDeviceWasConnectedNotification")
    public static let AVCaptureDeviceWasDisconnected = Notification.Name("AVCaptureDeviceWasDisconnectedNotification")
    public static let AVCaptureDeviceSubjectAreaDidChange = Notification.Name("AVCaptureDeviceSubjectAreaDidChangeNotification")
    public static let AVCaptureInputPortFormatDescriptionDidChange = Notification.Name("AVCaptureInputPortFormatDescriptionDidChangeNotification")
}

/// userInfo key of `runtimeErrorNotification`: the error, an `AVError` (it casts to `NSError` too).
public let AVCaptureSessionErrorKey = "AVCaptureSessionErrorKey"
/// userInfo key of `wasInterruptedNotification`: the reason's raw value (`NSNumber`).
public let AVCaptureSessionInterruptionReasonKey = "AVCaptureSessionInterruptionReasonKey"
/// userInfo key of `wasInterruptedNotification` for system pressure: the pressure state.
public let AVCaptureSessionInterruptionSystemPressureStateKey = "AVCaptureSessionInterruptionSystemPressureStateKey"

/// Posts on the main queue, where iOS delivers capture notifications.
func postOnMainQueue(_ name: Notification.Name, object: AnyObject, userInfo: [String: any Sendable]? = nil) {
    let box = UncheckedSendable(object)
    DispatchQueue.main.async {
        NotificationCenter.default.post(name: name, object: box.value, userInfo: userInfo)
    }
}

/// Carries a value the compiler cannot prove sendable across a queue hop we know is safe.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
