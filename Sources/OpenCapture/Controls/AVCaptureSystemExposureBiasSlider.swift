import Foundation

/// The system's exposure-bias control for a device's `exposureTargetBias` (iOS 18).
///
/// Only devices that can set `exposureTargetBias` may be given (here: a device whose
/// `minExposureTargetBias` is below its `maxExposureTargetBias`); any other raises
/// `NSInvalidArgumentException`, as Apple documents. On Linux the slider cannot be added to
/// a session (no Camera Control), so the system never changes the bias through it and never
/// calls its action.
open class AVCaptureSystemExposureBiasSlider: AVCaptureControl, @unchecked Sendable {
    /// The device the slider controls (Linux addition; Apple keeps it private).
    public let device: AVCaptureDevice
    private let action: (@MainActor @Sendable (Float) -> Void)?

    /// An exposure-bias slider for `device`. Raises `NSInvalidArgumentException` if the
    /// device cannot set an exposure bias.
    public convenience init(device: AVCaptureDevice) {
        self.init(device: device, optionalAction: nil, selector: "initWithDevice:")
    }

    /// An exposure-bias slider for `device` whose action the system calls on the main actor
    /// when the slider changes `exposureTargetBias` (never on Linux). Raises
    /// `NSInvalidArgumentException` if the device cannot set an exposure bias.
    public convenience init(device: AVCaptureDevice, action: @escaping @MainActor @Sendable (Float) -> Void) {
        self.init(device: device, optionalAction: action, selector: "initWithDevice:action:")
    }

    init(device: AVCaptureDevice, optionalAction: (@MainActor @Sendable (Float) -> Void)?, selector: String) {
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
}
