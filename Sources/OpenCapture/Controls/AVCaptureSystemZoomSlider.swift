import Foundation

/// The system's zoom control for a device's `videoZoomFactor` (iOS 18).
///
/// Only devices that can set `videoZoomFactor` may be given; here that is a device whose
/// active format zooms (`videoMaxZoomFactor > 1`). Any other raises
/// `NSInvalidArgumentException`, as Apple documents. On Linux the slider cannot be added to
/// a session (no Camera Control), so the system never changes the zoom through it and never
/// calls its action.
open class AVCaptureSystemZoomSlider: AVCaptureControl, @unchecked Sendable {
    /// The device the slider controls (Linux addition; Apple keeps it private).
    public let device: AVCaptureDevice
    private let action: (@MainActor @Sendable (CGFloat) -> Void)?

    /// A zoom slider for `device`. Raises `NSInvalidArgumentException` if the device cannot
    /// zoom.
    public convenience init(device: AVCaptureDevice) {
        self.init(device: device, optionalAction: nil, selector: "initWithDevice:")
    }

    /// A zoom slider for `device` whose action the system calls on the main actor when the
    /// slider changes `videoZoomFactor` (never on Linux). Raises `NSInvalidArgumentException`
    /// if the device cannot zoom.
    public convenience init(device: AVCaptureDevice, action: @escaping @MainActor @Sendable (CGFloat) -> Void) {
        self.init(device: device, optionalAction: action, selector: "initWithDevice:action:")
    }

    init(device: AVCaptureDevice, optionalAction: (@MainActor @Sendable (CGFloat) -> Void)?, selector: String) {
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
}
