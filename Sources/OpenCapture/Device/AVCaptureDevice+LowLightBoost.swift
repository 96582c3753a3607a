import Foundation

extension AVCaptureDevice {
    /// Whether the camera can boost low-light sensitivity (the simulated back wide camera can;
    /// the others cannot, as on iPhones where only some cameras offered it).
    public var isLowLightBoostSupported: Bool { descriptor.supportsLowLightBoost }

    /// Whether low-light boost is on now: the camera lengthens exposures (and frames, down to
    /// 15 fps) in dim scenes instead of raising gain, which lowers noise.
    public var isLowLightBoostEnabled: Bool { lastFrameMetadata.isLowLightBoostEnabled }

    /// Whether the camera may switch low-light boost on by itself in dim scenes (default false).
    /// Setting it needs the configuration lock; on a camera without boost it raises.
    public var automaticallyEnablesLowLightBoostWhenAvailable: Bool {
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
