import Foundation

extension AVCaptureSession {
    var isMultitaskingCameraAccessSupportedBacking: Bool { false }

    var isMultitaskingCameraAccessEnabledBacking: Bool {
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
