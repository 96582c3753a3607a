import Foundation

extension AVCaptureDevice {
    var isLowLightBoostSupportedBacking: Bool { descriptor.supportsLowLightBoost }

    var isLowLightBoostEnabledBacking: Bool { lastFrameMetadata.isLowLightBoostEnabled }

    var automaticallyEnablesLowLightBoostWhenAvailableBacking: Bool {
        get { core.state.withLock { $0.automaticallyEnablesLowLightBoost } }
        set { enforce { try setAutomaticallyEnablesLowLightBoostWhenAvailable(newValue) } }
    }

    /// The checked form of setting `automaticallyEnablesLowLightBoostWhenAvailable` (Linux addition).
    public func setAutomaticallyEnablesLowLightBoostWhenAvailable(_ enabled: Bool) throws(AVCaptureException) {
        let selector = "setAutomaticallyEnablesLowLightBoostWhenAvailable:"
        try requireLock(selector)
        guard isLowLightBoostSupported else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector, "Low light boost is not supported on this device - use isLowLightBoostSupported"))
        }
        core.state.withLock { $0.automaticallyEnablesLowLightBoost = enabled }
        backend.apply(ControlRequest(id: core.controls.enqueue(nil), lowLightBoostAllowed: enabled))
    }
}
