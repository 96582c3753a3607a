import Foundation

/// Face-driven focus and exposure settings (iOS 15.4).
struct FaceDrivenSettings {
    var automaticallyAdjustsAutoFocus = true
    var autoFocus = true
    var automaticallyAdjustsAutoExposure = true
    var autoExposure = true
}

/// Face-driven autofocus and auto exposure (iOS 15.4): whether detected faces steer focus
/// and exposure. The settings keep Apple's rules (the lock, `automaticallyAdjusts…` first,
/// fixed-focus lenses refuse face-driven focus), but OpenCapture detects no faces, so on
/// Linux they never move focus or exposure: both behave as on an iPhone with no face in view.
extension AVCaptureDevice {
    /// Whether the device turns face-driven autofocus on and off itself (default true).
    public var automaticallyAdjustsFaceDrivenAutoFocusEnabled: Bool {
        get { core.state.withLock { $0.faceDriven.automaticallyAdjustsAutoFocus } }
        set {
            enforce {
                try requireLock("setAutomaticallyAdjustsFaceDrivenAutoFocusEnabled:")
                try requireAutoFocus("setAutomaticallyAdjustsFaceDrivenAutoFocusEnabled:")
                core.state.withLock { $0.faceDriven.automaticallyAdjustsAutoFocus = newValue }
            }
        }
    }

    /// Whether faces drive autofocus (default true on cameras that autofocus, false on
    /// fixed-focus ones). Setting it needs the lock and `automaticallyAdjustsFaceDrivenAutoFocusEnabled`
    /// false, and raises on a fixed-focus camera, as on iOS.
    public var isFaceDrivenAutoFocusEnabled: Bool {
        get { isFocusModeSupported(.autoFocus) && core.state.withLock { $0.faceDriven.autoFocus } }
        set {
            enforce {
                try requireLock("setFaceDrivenAutoFocusEnabled:")
                try requireAutoFocus("setFaceDrivenAutoFocusEnabled:")
                guard !automaticallyAdjustsFaceDrivenAutoFocusEnabled else {
                    throw AVCaptureException(.invalidArgument, selectorReason(
                        "AVCaptureDevice", "setFaceDrivenAutoFocusEnabled:", "May not be set while automaticallyAdjustsFaceDrivenAutoFocusEnabled is YES"))
                }
                core.state.withLock { $0.faceDriven.autoFocus = newValue }
            }
        }
    }

    /// Whether the device turns face-driven auto exposure on and off itself (default true).
    public var automaticallyAdjustsFaceDrivenAutoExposureEnabled: Bool {
        get { core.state.withLock { $0.faceDriven.automaticallyAdjustsAutoExposure } }
        set {
            enforce {
                try requireLock("setAutomaticallyAdjustsFaceDrivenAutoExposureEnabled:")
                core.state.withLock { $0.faceDriven.automaticallyAdjustsAutoExposure = newValue }
            }
        }
    }

    /// Whether faces drive auto exposure (default true). Setting it needs the lock and
    /// `automaticallyAdjustsFaceDrivenAutoExposureEnabled` false, as on iOS.
    public var isFaceDrivenAutoExposureEnabled: Bool {
        get { core.state.withLock { $0.faceDriven.autoExposure } }
        set {
            enforce {
                try requireLock("setFaceDrivenAutoExposureEnabled:")
                guard !automaticallyAdjustsFaceDrivenAutoExposureEnabled else {
                    throw AVCaptureException(.invalidArgument, selectorReason(
                        "AVCaptureDevice", "setFaceDrivenAutoExposureEnabled:", "May not be set while automaticallyAdjustsFaceDrivenAutoExposureEnabled is YES"))
                }
                core.state.withLock { $0.faceDriven.autoExposure = newValue }
            }
        }
    }

    private func requireAutoFocus(_ selector: String) throws(AVCaptureException) {
        guard isFocusModeSupported(.autoFocus) else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector, "Not supported - this device does not autofocus"))
        }
    }
}
