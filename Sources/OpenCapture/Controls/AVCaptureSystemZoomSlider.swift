import Foundation

/// The system's zoom control for a device's `videoZoomFactor` (iOS 18).
///
/// Only devices that can set `videoZoomFactor` may be given; here that is a device whose
/// active format zooms (`videoMaxZoomFactor > 1`). Any other raises
/// `NSInvalidArgumentException`, as Apple documents. On Linux a user changes the zoom through
/// it from a control surface (`CaptureWebServer`'s page, via `changeZoomFactorAsUser(_:)`),
/// as the Camera Control does on iOS: the device's zoom is set, then the action is called on
/// the main actor.
open class AVCaptureSystemZoomSlider: AVCaptureControl, @unchecked Sendable {
    /// The device the slider controls (Linux addition; Apple keeps it private).
    public let device: AVCaptureDevice
    private let action: (@MainActor (CGFloat) -> Void)?

    /// A zoom slider for `device`. Raises `NSInvalidArgumentException` if the device cannot
    /// zoom.
    public convenience init(device: AVCaptureDevice) {
        self.init(device: device, optionalAction: nil, selector: "initWithDevice:")
    }

    /// A zoom slider for `device` whose action the system calls on the main actor when the
    /// slider changes `videoZoomFactor` (never on Linux). Raises `NSInvalidArgumentException`
    /// if the device cannot zoom.
    public convenience init(device: AVCaptureDevice, action: @escaping @MainActor (CGFloat) -> Void) {
        self.init(device: device, optionalAction: action, selector: "initWithDevice:action:")
    }

    init(device: AVCaptureDevice, optionalAction: (@MainActor (CGFloat) -> Void)?, selector: String) {
        if device.activeFormat.videoMaxZoomFactor <= 1 {
            AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureSystemZoomSlider", selector,
                    "\(device.localizedName) does not support setting videoZoomFactor")).raise()
        }
        self.device = device
        action = optionalAction
        super.init(concreteControl: ())
    }

    /// A user's change from a control surface, as a turn of the Camera Control (Linux
    /// addition): sets the device's `videoZoomFactor` to `requested`, clamped to the device's range,
    /// under its configuration lock, then calls the action on the main actor. Returns the
    /// value set.
    ///
    /// Throws `NSGenericException` unless the slider is enabled and in a session whose
    /// controls are active, and the device's error if it cannot be configured now.
    @discardableResult
    public func changeZoomFactorAsUser(_ requested: CGFloat) throws -> CGFloat {
        try checkUserMayChange("changeZoomFactorAsUser:")
        guard requested.isFinite else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureSystemZoomSlider", "changeZoomFactorAsUser:", "value must be a number"))
        }
        let value = min(max(requested, device.minAvailableVideoZoomFactor), device.maxAvailableVideoZoomFactor)
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.setVideoZoomFactor(value)
        if let action {
            Task { @MainActor in action(value) }
        }
        return value
    }
}
