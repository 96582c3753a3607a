import Foundation

extension AVCaptureSession {
    /// Whether the session can be configured to use the camera while multitasking (iOS 16).
    ///
    /// Always false on Linux, as on an iPhone: Apple answers true only on iPads that run
    /// Stage Manager with an extended display, for video-conferencing apps (`voip`
    /// background mode) linked on iOS 18, with the multitasking-camera-access entitlement,
    /// and on Apple TV. A Linux process has no multitasking model that could interrupt it
    /// with `.videoDeviceNotAvailableWithMultipleForegroundApps`, so there is nothing to
    /// opt out of.
    public var isMultitaskingCameraAccessSupported: Bool { false }

    /// Whether the session is configured to use the camera while multitasking (default
    /// false).
    ///
    /// Apple's header: "This property may only be set if -isMultitaskingCameraAccessSupported
    /// returns YES." Setting true here, where it is never supported, raises
    /// `NSInvalidArgumentException`; setting false is always allowed. (The header states the
    /// rule but not the exception's name; invalid-argument is what AVFoundation raises for
    /// every other "only if supported" property.) `setMultitaskingCameraAccessEnabled(_:)`
    /// is the checked form.
    public var isMultitaskingCameraAccessEnabled: Bool {
        get { model.withLock { $0.multitaskingCameraAccessEnabled } }
        set { enforce { try setMultitaskingCameraAccessEnabled(newValue) } }
    }

    /// The checked form of setting `isMultitaskingCameraAccessEnabled` (Linux addition):
    /// throws instead of ending the process.
    public func setMultitaskingCameraAccessEnabled(_ enabled: Bool) throws(AVCaptureException) {
        if enabled && !isMultitaskingCameraAccessSupported {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureSession", "setMultitaskingCameraAccessEnabled:",
                    "Multitasking camera access is not supported - use -isMultitaskingCameraAccessSupported"))
        }
        model.withLock { $0.multitaskingCameraAccessEnabled = enabled }
    }
}
