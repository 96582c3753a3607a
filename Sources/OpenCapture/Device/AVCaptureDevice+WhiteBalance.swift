import Foundation

extension AVCaptureDevice {
    // MARK: Modes

    func isWhiteBalanceModeSupportedBacking(_ whiteBalanceMode: WhiteBalanceMode) -> Bool {
        descriptor.colorCalibration != nil
    }

    /// The checked form of setting `whiteBalanceMode` (Linux addition).
    public func setWhiteBalanceMode(_ mode: WhiteBalanceMode) throws(AVCaptureException) {
        try changeProperty(
            "setWhiteBalanceMode:", announcing: ["whiteBalanceMode"], supported: isWhiteBalanceModeSupported(mode),
            unsupported: "Unsupported white balance mode - use isWhiteBalanceModeSupported:"
        ) {
            let control: WhiteBalanceControl =
                switch mode {
                case .locked: .lockCurrent
                case .autoWhiteBalance: .autoOnce
                case .continuousAutoWhiteBalance: .continuous
                }
            return whiteBalanceChange(control, mode: mode, completionHandler: nil)
        }
    }

    var isAdjustingWhiteBalanceBacking: Bool { lastFrameMetadata.isAdjustingWhiteBalance }

    // MARK: Gains

    var maxWhiteBalanceGainBacking: Float { descriptor.colorCalibration?.maxWhiteBalanceGain ?? 1 }

    var isLockingWhiteBalanceWithCustomDeviceGainsSupportedBacking: Bool { descriptor.colorCalibration != nil && !isVirtualDevice }

    var deviceWhiteBalanceGainsBacking: WhiteBalanceGains {
        let frame = lastFrameMetadata
        guard frame.sequence > 0 || frame.presentationTime.isValid else { return defaultWhiteBalanceGains }
        return WhiteBalanceGains(frame.whiteBalanceGains)
    }

    var grayWorldDeviceWhiteBalanceGainsBacking: WhiteBalanceGains {
        let frame = lastFrameMetadata
        guard frame.presentationTime.isValid else { return defaultWhiteBalanceGains }
        return WhiteBalanceGains(frame.grayWorldGains)
    }

    /// Before the first frame: the gains for daylight (6500 K).
    private var defaultWhiteBalanceGains: WhiteBalanceGains {
        guard let converter = whiteBalanceConverter else { return WhiteBalanceGains(redGain: 1, greenGain: 1, blueGain: 1) }
        return converter.clampedGains(converter.gains(temperature: 6500, tint: 0))
    }

    /// The checked form of `setWhiteBalanceModeLocked(with:completionHandler:)` (Linux addition).
    public func setWhiteBalanceModeLockedChecked(with gains: WhiteBalanceGains, completionHandler handler: ((CMTime) -> Void)? = nil) throws(AVCaptureException) {
        let selector = "setWhiteBalanceModeLockedWithDeviceWhiteBalanceGains:completionHandler:"
        try changeProperty(
            selector, announcing: ["whiteBalanceMode"], supported: isWhiteBalanceModeSupported(.locked),
            unsupported: "Unsupported white balance mode"
        ) { () throws(AVCaptureException) -> ControlChange? in
            if gains == Self.currentWhiteBalanceGains {
                return whiteBalanceChange(.lockCurrent, mode: .locked, completionHandler: handler)
            }
            guard isLockingWhiteBalanceWithCustomDeviceGainsSupported else {
                throw AVCaptureException(
                    .invalidArgument,
                    selectorReason("AVCaptureDevice", selector, "Custom gains are not supported - use isLockingWhiteBalanceWithCustomDeviceGainsSupported"))
            }
            try validateGains(gains, selector: selector)
            let smallest = min(gains.redGain, gains.greenGain, gains.blueGain)
            let control = WhiteBalanceControl.lock(red: gains.redGain / smallest, green: gains.greenGain / smallest, blue: gains.blueGain / smallest)
            return whiteBalanceChange(control, mode: .locked, completionHandler: handler)
        }
    }

    private func whiteBalanceChange(_ control: WhiteBalanceControl, mode: WhiteBalanceMode, completionHandler: ((CMTime) -> Void)?) -> ControlChange {
        ControlChange(ControlRequest(id: 0, whiteBalance: control), completionHandler: completionHandler, record: { [core] id in
            core.whiteBalance.mode = Requested(mode, request: id)
        })
    }

    func validateGains(_ gains: WhiteBalanceGains, selector: String) throws(AVCaptureException) {
        if gains == Self.currentWhiteBalanceGains {
            throw AVCaptureException(
                .range, selectorReason("AVCaptureDevice", selector, "AVCaptureWhiteBalanceGainsCurrent is not allowed here"))
        }
        let maximum = maxWhiteBalanceGain
        for (name, value) in [("red", gains.redGain), ("green", gains.greenGain), ("blue", gains.blueGain)] {
            guard value >= 1, value <= maximum, value.isFinite else {
                throw AVCaptureException(
                    .range,
                    selectorReason("AVCaptureDevice", selector,
                        "The \(name) gain \(value) is out of range [1.0, \(maximum)] - gains must lie in 1.0 ... maxWhiteBalanceGain"))
            }
        }
    }
}

extension AVCaptureDevice {
    /// The white-balance keys, in the order the device's key table lists them.
    static func whiteBalanceObservableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.whiteBalanceMode, "whiteBalanceMode"),
            ObservableKey(\Root.isAdjustingWhiteBalance, "adjustingWhiteBalance"),
            ObservableKey(\Root.deviceWhiteBalanceGains, "deviceWhiteBalanceGains"),
        ]
    }
}

extension AVCaptureDevice.WhiteBalanceGains {
    init(_ gains: (red: Float, green: Float, blue: Float)) {
        self.init(redGain: gains.red, greenGain: gains.green, blueGain: gains.blue)
    }
}
