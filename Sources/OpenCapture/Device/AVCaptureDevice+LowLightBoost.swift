import Foundation

extension AVCaptureDevice {
    var isLowLightBoostSupportedBacking: Bool { descriptor.supportsLowLightBoost }

    var isLowLightBoostEnabledBacking: Bool { lastFrameMetadata.isLowLightBoostEnabled }

    /// The checked form of setting `automaticallyEnablesLowLightBoostWhenAvailable` (Linux addition).
    public func setAutomaticallyEnablesLowLightBoostWhenAvailable(_ enabled: Bool) throws(AVCaptureException) {
        try changeProperty(
            "setAutomaticallyEnablesLowLightBoostWhenAvailable:", supported: isLowLightBoostSupported,
            unsupported: "Low light boost is not supported on this device - use isLowLightBoostSupported"
        ) {
            core.exposure.lowLightBoostAllowed = enabled
            return ControlChange(ControlRequest(id: 0, lowLightBoostAllowed: enabled))
        }
    }
}

extension AVCaptureDevice {
    /// The low-light boost key, where the device's key table lists it.
    static func lowLightBoostObservableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>] {
        [ObservableKey(\Root.isLowLightBoostEnabled, "lowLightBoostEnabled")]
    }
}
