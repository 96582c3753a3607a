import Foundation

extension AVCaptureDevice {
    // MARK: Modes

    func isWhiteBalanceModeSupportedBacking(_ whiteBalanceMode: WhiteBalanceMode) -> Bool {
        descriptor.colorCalibration != nil
    }

    var whiteBalanceModeBacking: WhiteBalanceMode {
        get {
            let (mode, request, frame) = core.state.withLock { ($0.whiteBalanceMode, $0.whiteBalanceRequest, $0.lastFrame) }
            if mode == .autoWhiteBalance, frame.appliedRequest >= request, frame.whiteBalanceState == .locked {
                return .locked
            }
            return mode
        }
        set { enforce { try setWhiteBalanceMode(newValue) } }
    }

    /// The checked form of setting `whiteBalanceMode` (Linux addition).
    public func setWhiteBalanceMode(_ mode: WhiteBalanceMode) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["whiteBalanceMode"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        try requireLock("setWhiteBalanceMode:")
        guard isWhiteBalanceModeSupported(mode) else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureDevice", "setWhiteBalanceMode:", "Unsupported white balance mode - use isWhiteBalanceModeSupported:"))
        }
        let control: WhiteBalanceControl =
            switch mode {
            case .locked: .lockCurrent
            case .autoWhiteBalance: .autoOnce
            case .continuousAutoWhiteBalance: .continuous
            }
        submitWhiteBalance(control, mode: mode, completionHandler: nil)
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

    func setWhiteBalanceModeLockedBacking(with whiteBalanceGains: WhiteBalanceGains, completionHandler handler: ((CMTime) -> Void)? = nil) {
        enforce { try setWhiteBalanceModeLockedChecked(with: whiteBalanceGains, completionHandler: handler) }
    }

    func setWhiteBalanceModeLockedBacking(with whiteBalanceGains: WhiteBalanceGains) async -> CMTime {
        await withCheckedContinuation { continuation in
            setWhiteBalanceModeLocked(with: whiteBalanceGains) { continuation.resume(returning: $0) }
        }
    }

    /// The checked form of `setWhiteBalanceModeLocked(with:completionHandler:)` (Linux addition).
    public func setWhiteBalanceModeLockedChecked(with gains: WhiteBalanceGains, completionHandler handler: ((CMTime) -> Void)? = nil) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["whiteBalanceMode"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setWhiteBalanceModeLockedWithDeviceWhiteBalanceGains:completionHandler:"
        try requireLock(selector)
        guard isWhiteBalanceModeSupported(.locked) else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector, "Unsupported white balance mode"))
        }
        if gains == Self.currentWhiteBalanceGains {
            submitWhiteBalance(.lockCurrent, mode: .locked, completionHandler: handler)
            return
        }
        guard isLockingWhiteBalanceWithCustomDeviceGainsSupported else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureDevice", selector, "Custom gains are not supported - use isLockingWhiteBalanceWithCustomDeviceGainsSupported"))
        }
        try validateGains(gains, selector: selector)
        let smallest = min(gains.redGain, gains.greenGain, gains.blueGain)
        let control = WhiteBalanceControl.lock(red: gains.redGain / smallest, green: gains.greenGain / smallest, blue: gains.blueGain / smallest)
        submitWhiteBalance(control, mode: .locked, completionHandler: handler)
    }

    private func submitWhiteBalance(_ control: WhiteBalanceControl, mode: WhiteBalanceMode, completionHandler: ((CMTime) -> Void)?) {
        let id = core.controls.enqueue(completionHandler)
        core.state.withLock {
            $0.whiteBalanceMode = mode
            $0.whiteBalanceRequest = id
        }
        backend.apply(ControlRequest(id: id, whiteBalance: control))
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

extension AVCaptureDevice.WhiteBalanceGains {
    init(_ gains: (red: Float, green: Float, blue: Float)) {
        self.init(redGain: gains.red, greenGain: gains.green, blueGain: gains.blue)
    }
}
