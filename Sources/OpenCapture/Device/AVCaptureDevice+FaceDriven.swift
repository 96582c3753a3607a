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
    var automaticallyAdjustsFaceDrivenAutoFocusEnabledBacking: Bool {
        get { core.state.withLock { $0.faceDriven.automaticallyAdjustsAutoFocus } }
        set {
            enforce {
                try requireLock("setAutomaticallyAdjustsFaceDrivenAutoFocusEnabled:")
                try requireAutoFocus("setAutomaticallyAdjustsFaceDrivenAutoFocusEnabled:")
                core.state.withLock { $0.faceDriven.automaticallyAdjustsAutoFocus = newValue }
            }
        }
    }

    var isFaceDrivenAutoFocusEnabledBacking: Bool {
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

    var automaticallyAdjustsFaceDrivenAutoExposureEnabledBacking: Bool {
        get { core.state.withLock { $0.faceDriven.automaticallyAdjustsAutoExposure } }
        set {
            enforce {
                try requireLock("setAutomaticallyAdjustsFaceDrivenAutoExposureEnabled:")
                core.state.withLock { $0.faceDriven.automaticallyAdjustsAutoExposure = newValue }
            }
        }
    }

    var isFaceDrivenAutoExposureEnabledBacking: Bool {
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
