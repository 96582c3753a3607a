import Foundation

/// Face-driven autofocus and auto exposure (iOS 15.4): whether detected faces steer focus
/// and exposure. The settings keep Apple's rules (the lock, `automaticallyAdjusts…` first,
/// fixed-focus lenses refuse face-driven focus), but OpenCapture detects no faces, so on
/// Linux they never move focus or exposure: both behave as on an iPhone with no face in view.
/// The values live in `FocusSettings` and `ExposureSettings`.
extension AVCaptureDevice {
    /// The checked form of setting `automaticallyAdjustsFaceDrivenAutoFocusEnabled` (Linux addition).
    public func setAutomaticallyAdjustsFaceDrivenAutoFocusEnabled(_ enabled: Bool) throws(AVCaptureException) {
        try changeProperty(
            "setAutomaticallyAdjustsFaceDrivenAutoFocusEnabled:", supported: isFocusModeSupported(.autoFocus),
            unsupported: Self.noAutoFocus
        ) {
            core.focus.automaticallyAdjustsFaceDriven = enabled
            return nil
        }
    }

    /// The checked form of setting `isFaceDrivenAutoFocusEnabled` (Linux addition).
    public func setFaceDrivenAutoFocusEnabled(_ enabled: Bool) throws(AVCaptureException) {
        let selector = "setFaceDrivenAutoFocusEnabled:"
        try changeProperty(selector, supported: isFocusModeSupported(.autoFocus), unsupported: Self.noAutoFocus) {
            () throws(AVCaptureException) -> ControlChange? in
            guard !automaticallyAdjustsFaceDrivenAutoFocusEnabled else {
                throw AVCaptureException(.invalidArgument, selectorReason(
                    "AVCaptureDevice", selector, "May not be set while automaticallyAdjustsFaceDrivenAutoFocusEnabled is YES"))
            }
            core.focus.faceDriven = enabled
            return nil
        }
    }

    /// The checked form of setting `automaticallyAdjustsFaceDrivenAutoExposureEnabled` (Linux addition).
    public func setAutomaticallyAdjustsFaceDrivenAutoExposureEnabled(_ enabled: Bool) throws(AVCaptureException) {
        try changeProperty("setAutomaticallyAdjustsFaceDrivenAutoExposureEnabled:") {
            core.exposure.automaticallyAdjustsFaceDriven = enabled
            return nil
        }
    }

    /// The checked form of setting `isFaceDrivenAutoExposureEnabled` (Linux addition).
    public func setFaceDrivenAutoExposureEnabled(_ enabled: Bool) throws(AVCaptureException) {
        let selector = "setFaceDrivenAutoExposureEnabled:"
        try changeProperty(selector) { () throws(AVCaptureException) -> ControlChange? in
            guard !automaticallyAdjustsFaceDrivenAutoExposureEnabled else {
                throw AVCaptureException(.invalidArgument, selectorReason(
                    "AVCaptureDevice", selector, "May not be set while automaticallyAdjustsFaceDrivenAutoExposureEnabled is YES"))
            }
            core.exposure.faceDriven = enabled
            return nil
        }
    }

    private static let noAutoFocus = "Not supported - this device does not autofocus"
}
