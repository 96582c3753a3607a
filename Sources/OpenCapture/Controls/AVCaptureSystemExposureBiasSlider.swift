import Foundation

/// The system's exposure-bias control for a device's `exposureTargetBias` (iOS 18).
///
/// Only devices that can set `exposureTargetBias` may be given (here: a device whose
/// `minExposureTargetBias` is below its `maxExposureTargetBias`); any other raises
/// `NSInvalidArgumentException`, as Apple documents. On Linux a user changes the bias through
/// it from a control surface (`CaptureWebServer`'s page, via
/// `changeExposureTargetBiasAsUser(_:)`), as the Camera Control does on iOS: the device's bias
/// is set, then the action is called on the main actor.
open class AVCaptureSystemExposureBiasSlider: AVCaptureControl, @unchecked Sendable {
    /// The device the slider controls (Linux addition; Apple keeps it private).
    public let device: AVCaptureDevice
    private let action: (@MainActor (Float) -> Void)?

    /// An exposure-bias slider for `device`. Raises `NSInvalidArgumentException` if the
    /// device cannot set an exposure bias.
    public convenience init(device: AVCaptureDevice) {
        self.init(device: device, optionalAction: nil, selector: "initWithDevice:")
    }

    /// An exposure-bias slider for `device` whose action the system calls on the main actor
    /// when the slider changes `exposureTargetBias`. Raises
    /// `NSInvalidArgumentException` if the device cannot set an exposure bias.
    public convenience init(device: AVCaptureDevice, action: @escaping @MainActor (Float) -> Void) {
        self.init(device: device, optionalAction: action, selector: "initWithDevice:action:")
    }

    init(device: AVCaptureDevice, optionalAction: (@MainActor (Float) -> Void)?, selector: String) {
        if !(device.minExposureTargetBias < device.maxExposureTargetBias) {
            AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureSystemExposureBiasSlider", selector,
                    "\(device.localizedName) does not support setting exposureTargetBias")).raise()
        }
        self.device = device
        action = optionalAction
        super.init(concreteControl: ())
    }

    /// A user's change from a control surface, as a turn of the Camera Control (Linux
    /// addition): sets the device's `exposureTargetBias` to `requested`, clamped to the device's range,
    /// under its configuration lock, then calls the action on the main actor. Returns the
    /// value set.
    ///
    /// Throws `NSGenericException` unless the slider is enabled and in a session whose
    /// controls are active, and the device's error if it cannot be configured now.
    @discardableResult
    public func changeExposureTargetBiasAsUser(_ requested: Float) throws -> Float {
        try checkUserMayChange("changeExposureTargetBiasAsUser:")
        guard requested.isFinite else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureSystemExposureBiasSlider", "changeExposureTargetBiasAsUser:", "value must be a number"))
        }
        let value = min(max(requested, device.minExposureTargetBias), device.maxExposureTargetBias)
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.setExposureTargetBiasChecked(value)
        if let action {
            Task { @MainActor in action(value) }
        }
        return value
    }
}
