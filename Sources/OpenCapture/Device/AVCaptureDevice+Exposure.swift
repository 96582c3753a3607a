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

    /// Whether the device supports an exposure mode (the simulated cameras support all four).
    public func isExposureModeSupported(_ exposureMode: ExposureMode) -> Bool {
        // Virtual devices refuse custom exposure, as on iOS.
        descriptor.supportsExposureControl && !(exposureMode == .custom && isVirtualDevice)
    }

    /// The exposure mode. `.autoExpose` becomes `.locked` once it has settled. Setting it
    /// needs the configuration lock; an unsupported mode raises. Setting an auto mode also
    /// applies `exposurePointOfInterest`, as on iOS.
    public var exposureMode: ExposureMode {
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

    /// Whether auto exposure is moving exposure time or ISO right now.
    public var isAdjustingExposure: Bool { lastFrameMetadata.isAdjustingExposure }

    // MARK: Point of interest

    /// Whether auto exposure can meter at a chosen point.
    public var isExposurePointOfInterestSupported: Bool { isExposureModeSupported(.continuousAutoExposure) }

    /// Where auto exposure meters: (0,0) is the top left and (1,1) the bottom right of the
    /// unrotated sensor image; default (0.5, 0.5). It takes effect when `exposureMode` is set
    /// next, as on iOS. Needs the configuration lock; unsupported raises.
    public var exposurePointOfInterest: CGPoint {
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

    /// The exposure error auto exposure measures, in EV: metered minus target.
    public var exposureTargetOffset: Float { lastFrameMetadata.exposureTargetOffset }

    /// Sets `.custom` with an exposure time and ISO (or the `current…` sentinels). The handler
    /// receives the timestamp of the first frame exposed with them. A duration or ISO outside
    /// the active format's range raises `NSRangeException`; no lock raises.
    public func setExposureModeCustom(duration: CMTime, iso ISO: Float, completionHandler handler: ((CMTime) -> Void)? = nil) {
        enforce { try setExposureModeCustomChecked(duration: duration, iso: ISO, completionHandler: handler) }
    }

    /// Sets `.custom` and returns the timestamp of the first frame exposed with the values.
    public func setExposureModeCustom(duration: CMTime, iso ISO: Float) async -> CMTime {
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

    /// The smallest exposure target bias, EV.
    public var minExposureTargetBias: Float { isExposureModeSupported(.continuousAutoExposure) ? -8 : 0 }
    /// The largest exposure target bias, EV.
    public var maxExposureTargetBias: Float { isExposureModeSupported(.continuousAutoExposure) ? 8 : 0 }
    /// The bias auto exposure aims with, EV (default 0).
    public var exposureTargetBias: Float { core.state.withLock { $0.exposureTargetBias } }

    /// Biases the exposure target by `bias` EV (or `currentExposureTargetBias`). Out of
    /// range raises `NSRangeException`; no lock raises.
    public func setExposureTargetBias(_ bias: Float, completionHandler handler: ((CMTime) -> Void)? = nil) {
        enforce { try setExposureTargetBiasChecked(bias, completionHandler: handler) }
    }

    /// Biases the target and returns the timestamp of the first frame with the bias.
    public func setExposureTargetBias(_ bias: Float) async -> CMTime {
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

    /// The longest exposure auto exposure may use; `.invalid` restores the format's default.
    /// Reset when the format changes. Outside the format's exposure range raises.
    public var activeMaxExposureDuration: CMTime {
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
