import Foundation

extension AVCaptureDevice {
    /// How the device exposes.
    public enum ExposureMode: Int, Sendable {
        /// Exposure time and ISO are held.
        case locked = 0
        /// Adjusts once, then switches to `.locked`.
        case autoExpose = 1
        /// Keeps adjusting (the default).
        case continuousAutoExposure = 2
        /// Exposure time and ISO set by `setExposureModeCustom(duration:iso:completionHandler:)`.
        case custom = 3
    }

    /// The sentinel meaning "keep the current exposure time" for `setExposureModeCustom`.
    public static let currentExposureDuration = CMTime.invalid
    /// The sentinel meaning "keep the current ISO" for `setExposureModeCustom`.
    public static let currentISO: Float = .greatestFiniteMagnitude
    /// The sentinel meaning "keep the current bias" for `setExposureTargetBias`.
    public static let currentExposureTargetBias: Float = .greatestFiniteMagnitude

    // MARK: Modes

    func isExposureModeSupportedBacking(_ exposureMode: ExposureMode) -> Bool {
        // Virtual devices refuse custom exposure, as on iOS.
        descriptor.supportsExposureControl && !(exposureMode == .custom && isVirtualDevice)
    }

    var exposureModeBacking: ExposureMode {
        get {
            let (mode, request, frame) = core.state.withLock { ($0.exposureMode, $0.exposureRequest, $0.lastFrame) }
            if mode == .autoExpose, frame.appliedRequest >= request, frame.exposureState == .locked { return .locked }
            return mode
        }
        set { enforce { try setExposureMode(newValue) } }
    }

    /// The checked form of setting `exposureMode` (Linux addition).
    public func setExposureMode(_ mode: ExposureMode) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["exposureMode"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        try requireLock("setExposureMode:")
        guard isExposureModeSupported(mode) else {
            throw AVCaptureException(
                .invalidArgument, selectorReason("AVCaptureDevice", "setExposureMode:", "Unsupported exposure mode \(mode.rawValue) - use isExposureModeSupported:"))
        }
        let control: ExposureControl =
            switch mode {
            case .locked: .lockCurrent
            case .autoExpose: .autoOnce
            case .continuousAutoExposure: .continuous
            case .custom: .custom(duration: nil, iso: nil)
            }
        let point = core.state.withLock { $0.exposurePointOfInterest }
        submitExposure(ControlRequest(id: 0, exposure: control, exposurePointOfInterest: PointOfInterest(x: point.x, y: point.y)), mode: mode, handler: nil)
        noteSwitchingCondition(.exposureModeChanged)
    }

    var isAdjustingExposureBacking: Bool { lastFrameMetadata.isAdjustingExposure }

    // MARK: Point of interest

    var isExposurePointOfInterestSupportedBacking: Bool { isExposureModeSupported(.continuousAutoExposure) }

    var exposurePointOfInterestBacking: CGPoint {
        get { core.state.withLock { $0.exposurePointOfInterest } }
        set { enforce { try setExposurePointOfInterest(newValue) } }
    }

    /// The checked form of setting `exposurePointOfInterest` (Linux addition).
    public func setExposurePointOfInterest(_ point: CGPoint) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["exposurePointOfInterest"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        try requireLock("setExposurePointOfInterest:")
        guard isExposurePointOfInterestSupported else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", "setExposurePointOfInterest:", "Setting exposurePointOfInterest is not supported by this device."))
        }
        core.state.withLock { $0.exposurePointOfInterest = CGPoint(x: min(max(point.x, 0), 1), y: min(max(point.y, 0), 1)) }
    }

    // MARK: Custom exposure

    var exposureTargetOffsetBacking: Float { lastFrameMetadata.exposureTargetOffset }

    func setExposureModeCustomBacking(duration: CMTime, iso ISO: Float, completionHandler handler: ((CMTime) -> Void)? = nil) {
        enforce { try setExposureModeCustomChecked(duration: duration, iso: ISO, completionHandler: handler) }
    }

    func setExposureModeCustomBacking(duration: CMTime, iso ISO: Float) async -> CMTime {
        await withCheckedContinuation { continuation in
            setExposureModeCustom(duration: duration, iso: ISO) { continuation.resume(returning: $0) }
        }
    }

    /// The checked form of `setExposureModeCustom(duration:iso:completionHandler:)` (Linux addition).
    public func setExposureModeCustomChecked(duration: CMTime, iso ISO: Float, completionHandler handler: ((CMTime) -> Void)? = nil) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["exposureMode"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setExposureModeCustomWithDuration:ISO:completionHandler:"
        try requireLock(selector)
        guard isExposureModeSupported(.custom) else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector, "Unsupported exposure mode AVCaptureExposureModeCustom - use isExposureModeSupported:"))
        }
        let format = activeFormat
        var seconds: Double?
        if duration.isValid {
            guard duration >= format.minExposureDuration, duration <= format.maxExposureDuration else {
                throw AVCaptureException(.range, selectorReason("AVCaptureDevice", selector,
                    "Exposure duration \(duration.seconds) s is out of range [\(format.minExposureDuration.seconds), \(format.maxExposureDuration.seconds)] - see activeFormat.minExposureDuration and maxExposureDuration"))
            }
            seconds = duration.seconds
        }
        var gain: Float?
        if ISO != Self.currentISO {
            guard ISO >= format.minISO, ISO <= format.maxISO else {
                throw AVCaptureException(.range, selectorReason("AVCaptureDevice", selector,
                    "ISO \(ISO) is out of range [\(format.minISO), \(format.maxISO)] - see activeFormat.minISO and maxISO"))
            }
            gain = ISO
        }
        submitExposure(ControlRequest(id: 0, exposure: .custom(duration: seconds, iso: gain)), mode: .custom, handler: handler)
    }

    // MARK: Bias

    var minExposureTargetBiasBacking: Float { isExposureModeSupported(.continuousAutoExposure) ? -8 : 0 }
    var maxExposureTargetBiasBacking: Float { isExposureModeSupported(.continuousAutoExposure) ? 8 : 0 }
    var exposureTargetBiasBacking: Float { core.state.withLock { $0.exposureTargetBias } }

    func setExposureTargetBiasBacking(_ bias: Float, completionHandler handler: ((CMTime) -> Void)? = nil) {
        enforce { try setExposureTargetBiasChecked(bias, completionHandler: handler) }
    }

    func setExposureTargetBiasBacking(_ bias: Float) async -> CMTime {
        await withCheckedContinuation { continuation in
            setExposureTargetBias(bias) { continuation.resume(returning: $0) }
        }
    }

    /// The checked form of `setExposureTargetBias(_:completionHandler:)` (Linux addition).
    public func setExposureTargetBiasChecked(_ bias: Float, completionHandler handler: ((CMTime) -> Void)? = nil) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["exposureTargetBias"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setExposureTargetBias:completionHandler:"
        try requireLock(selector)
        let value = bias == Self.currentExposureTargetBias ? exposureTargetBias : bias
        guard value >= minExposureTargetBias, value <= maxExposureTargetBias else {
            throw AVCaptureException(.range, selectorReason("AVCaptureDevice", selector,
                "Exposure target bias \(bias) is out of range [\(minExposureTargetBias), \(maxExposureTargetBias)]"))
        }
        core.state.withLock { $0.exposureTargetBias = value }
        let id = core.controls.enqueue(handler)
        backend.apply(ControlRequest(id: id, exposureTargetBias: value))
    }

    // MARK: Limits

    var activeMaxExposureDurationBacking: CMTime {
        get {
            let chosen = core.state.withLock { $0.activeMaxExposureDuration }
            return chosen.isValid ? chosen : activeFormat.maxExposureDuration
        }
        set { enforce { try setActiveMaxExposureDuration(newValue) } }
    }

    /// The checked form of setting `activeMaxExposureDuration` (Linux addition).
    public func setActiveMaxExposureDuration(_ duration: CMTime) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["activeMaxExposureDuration"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setActiveMaxExposureDuration:"
        try requireLock(selector)
        let format = activeFormat
        if duration.isValid {
            guard duration >= format.minExposureDuration, duration <= format.maxExposureDuration else {
                throw AVCaptureException(.range, selectorReason("AVCaptureDevice", selector,
                    "Duration \(duration.seconds) s is out of range [\(format.minExposureDuration.seconds), \(format.maxExposureDuration.seconds)]"))
            }
        }
        core.state.withLock { $0.activeMaxExposureDuration = duration.isValid ? duration : .invalid }
        backend.apply(ControlRequest(id: core.controls.enqueue(nil), activeMaxExposureDuration: duration.isValid ? duration.seconds : 0))
    }

    private func submitExposure(_ request: ControlRequest, mode: ExposureMode, handler: ((CMTime) -> Void)?) {
        var numbered = request
        numbered.id = core.controls.enqueue(handler)
        let id = numbered.id
        core.state.withLock {
            $0.exposureMode = mode
            $0.exposureRequest = id
        }
        backend.apply(numbered)
    }
}
