import Foundation

extension AVCaptureDevice {
    /// How the device focuses.
    public enum FocusMode: Int, Sendable {
        /// The lens stays where it is.
        case locked = 0
        /// Focuses once, then switches to `.locked`.
        case autoFocus = 1
        /// Keeps the scene in focus, searching again when it changes (the default).
        case continuousAutoFocus = 2
    }

    /// Where autofocus may search.
    public enum AutoFocusRangeRestriction: Int, Sendable {
        case none = 0
        /// Only nearer than about 1.5 m.
        case near = 1
        /// Only farther than about 1.5 m.
        case far = 2
    }

    /// The sentinel meaning "keep the current lens position" for `setFocusModeLocked(lensPosition:)`.
    public static let currentLensPosition: Float = .greatestFiniteMagnitude

    private var hasAutoFocus: Bool { descriptor.focus.hasAutoFocus }

    // MARK: Modes

    func isFocusModeSupportedBacking(_ focusMode: FocusMode) -> Bool { focusMode == .locked || hasAutoFocus }

    var focusModeBacking: FocusMode {
        get {
            let (settings, frame) = core.state.withLock { ($0.lens, $0.lastFrame) }
            let mode = settings.focusMode ?? (hasAutoFocus ? .continuousAutoFocus : .locked)
            if mode == .autoFocus, frame.appliedRequest >= settings.focusRequest, frame.focusState == .locked { return .locked }
            return mode
        }
        set { enforce { try setFocusMode(newValue) } }
    }

    /// The checked form of setting `focusMode` (Linux addition).
    public func setFocusMode(_ mode: FocusMode) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["focusMode"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setFocusMode:"
        try requireLock(selector)
        guard isFocusModeSupported(mode) else {
            throw AVCaptureException(
                .invalidArgument, selectorReason("AVCaptureDevice", selector, "Unsupported focus mode \(mode.rawValue) - use isFocusModeSupported:"))
        }
        let settings = core.state.withLock { $0.lens }
        let search = FocusSearch(
            point: PointOfInterest(x: settings.focusPointOfInterest.x, y: settings.focusPointOfInterest.y),
            rangeRestriction: settings.autoFocusRangeRestriction.rawValue, smooth: settings.isSmoothAutoFocusEnabled)
        let control: FocusControl =
            switch mode {
            case .locked: .lock(lensPosition: nil)
            case .autoFocus: .autoOnce(search)
            case .continuousAutoFocus: .continuous(search)
            }
        submitFocus(control, mode: mode, handler: nil)
        noteSwitchingCondition(.focusModeChanged)
    }

    var isAdjustingFocusBacking: Bool { lastFrameMetadata.isAdjustingFocus }

    // MARK: Point of interest

    var isFocusPointOfInterestSupportedBacking: Bool { hasAutoFocus }

    var focusPointOfInterestBacking: CGPoint {
        get { core.state.withLock { $0.lens.focusPointOfInterest } }
        set { enforce { try setFocusPointOfInterest(newValue) } }
    }

    /// The checked form of setting `focusPointOfInterest` (Linux addition).
    public func setFocusPointOfInterest(_ point: CGPoint) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["focusPointOfInterest"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setFocusPointOfInterest:"
        try requireLock(selector)
        guard isFocusPointOfInterestSupported else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector, "Setting focusPointOfInterest is not supported by this device. Use isFocusPointOfInterestSupported"))
        }
        core.state.withLock { $0.lens.focusPointOfInterest = CGPoint(x: min(max(point.x, 0), 1), y: min(max(point.y, 0), 1)) }
    }

    // MARK: Range restriction and smooth focus

    var isAutoFocusRangeRestrictionSupportedBacking: Bool { hasAutoFocus }

    var autoFocusRangeRestrictionBacking: AutoFocusRangeRestriction {
        get { core.state.withLock { $0.lens.autoFocusRangeRestriction } }
        set { enforce { try setAutoFocusRangeRestriction(newValue) } }
    }

    /// The checked form of setting `autoFocusRangeRestriction` (Linux addition).
    public func setAutoFocusRangeRestriction(_ restriction: AutoFocusRangeRestriction) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["autoFocusRangeRestriction"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setAutoFocusRangeRestriction:"
        try requireLock(selector)
        guard isAutoFocusRangeRestrictionSupported else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector, "Setting autoFocusRangeRestriction is not supported by this device. Use isAutoFocusRangeRestrictionSupported"))
        }
        core.state.withLock { $0.lens.autoFocusRangeRestriction = restriction }
    }

    var isSmoothAutoFocusSupportedBacking: Bool { hasAutoFocus }

    var isSmoothAutoFocusEnabledBacking: Bool {
        get { core.state.withLock { $0.lens.isSmoothAutoFocusEnabled } }
        set { enforce { try setSmoothAutoFocusEnabled(newValue) } }
    }

    /// The checked form of setting `isSmoothAutoFocusEnabled` (Linux addition).
    public func setSmoothAutoFocusEnabled(_ enabled: Bool) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["smoothAutoFocusEnabled"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setSmoothAutoFocusEnabled:"
        try requireLock(selector)
        guard isSmoothAutoFocusSupported else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector, "Setting smoothAutoFocusEnabled is not supported by this device. Use isSmoothAutoFocusSupported"))
        }
        core.state.withLock { $0.lens.isSmoothAutoFocusEnabled = enabled }
    }

    // MARK: Lens position

    var lensPositionBacking: Float { lastFrameMetadata.lensPosition }

    var minimumFocusDistanceBacking: Int { Int((descriptor.focus.minimumFocusDistance * 1000).rounded()) }

    var isLockingFocusWithCustomLensPositionSupportedBacking: Bool { hasAutoFocus && !isVirtualDevice }

    func setFocusModeLockedBacking(lensPosition: Float, completionHandler handler: ((CMTime) -> Void)? = nil) {
        enforce { try setFocusModeLockedChecked(lensPosition: lensPosition, completionHandler: handler) }
    }

    func setFocusModeLockedBacking(lensPosition: Float) async -> CMTime {
        await withCheckedContinuation { continuation in
            setFocusModeLocked(lensPosition: lensPosition) { continuation.resume(returning: $0) }
        }
    }

    /// The checked form of `setFocusModeLocked(lensPosition:completionHandler:)` (Linux addition).
    public func setFocusModeLockedChecked(lensPosition: Float, completionHandler handler: ((CMTime) -> Void)? = nil) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["focusMode"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setFocusModeLockedWithLensPosition:completionHandler:"
        try requireLock(selector)
        var position: Float?
        if lensPosition != Self.currentLensPosition {
            guard isLockingFocusWithCustomLensPositionSupported else {
                throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector,
                    "Setting a custom lens position is not supported by this device. Use isLockingFocusWithCustomLensPositionSupported"))
            }
            guard lensPosition >= 0, lensPosition <= 1 else {
                throw AVCaptureException(.range, selectorReason("AVCaptureDevice", selector,
                    "lensPosition \(lensPosition) is out of range [0, 1] - pass AVCaptureLensPositionCurrent to keep the current position"))
            }
            position = lensPosition
        }
        submitFocus(.lock(lensPosition: position), mode: .locked, handler: handler)
    }

    private func submitFocus(_ control: FocusControl, mode: FocusMode, handler: ((CMTime) -> Void)?) {
        let id = core.controls.enqueue(handler)
        core.state.withLock {
            $0.lens.focusMode = mode
            $0.lens.focusRequest = id
        }
        backend.apply(.lens(id: id, focus: control))
    }
}
