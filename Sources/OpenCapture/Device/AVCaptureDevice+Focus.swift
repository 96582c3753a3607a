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

    /// The checked form of setting `focusMode` (Linux addition).
    public func setFocusMode(_ mode: FocusMode) throws(AVCaptureException) {
        try changeProperty(
            "setFocusMode:", announcing: ["focusMode"], supported: isFocusModeSupported(mode),
            unsupported: "Unsupported focus mode \(mode.rawValue) - use isFocusModeSupported:"
        ) {
            let search = core.focus.search
            let control: FocusControl =
                switch mode {
                case .locked: .lock(lensPosition: nil)
                case .autoFocus: .autoOnce(search)
                case .continuousAutoFocus: .continuous(search)
                }
            return focusChange(control, mode: mode)
        }
        noteSwitchingCondition(.focusModeChanged)
    }

    /// The mode until one is set: continuous autofocus where the lens can focus.
    var defaultFocusMode: FocusMode { hasAutoFocus ? .continuousAutoFocus : .locked }

    var isAdjustingFocusBacking: Bool { lastFrameMetadata.isAdjustingFocus }

    // MARK: Point of interest

    var isFocusPointOfInterestSupportedBacking: Bool { hasAutoFocus }

    /// The checked form of setting `focusPointOfInterest` (Linux addition).
    public func setFocusPointOfInterest(_ point: CGPoint) throws(AVCaptureException) {
        try changeProperty(
            "setFocusPointOfInterest:", announcing: ["focusPointOfInterest"], supported: isFocusPointOfInterestSupported,
            unsupported: "Setting focusPointOfInterest is not supported by this device. Use isFocusPointOfInterestSupported"
        ) {
            core.focus.pointOfInterest = CGPoint(x: min(max(point.x, 0), 1), y: min(max(point.y, 0), 1))
            return nil
        }
    }

    // MARK: Range restriction and smooth focus

    var isAutoFocusRangeRestrictionSupportedBacking: Bool { hasAutoFocus }

    /// The checked form of setting `autoFocusRangeRestriction` (Linux addition).
    public func setAutoFocusRangeRestriction(_ restriction: AutoFocusRangeRestriction) throws(AVCaptureException) {
        try changeProperty(
            "setAutoFocusRangeRestriction:", announcing: ["autoFocusRangeRestriction"], supported: isAutoFocusRangeRestrictionSupported,
            unsupported: "Setting autoFocusRangeRestriction is not supported by this device. Use isAutoFocusRangeRestrictionSupported"
        ) {
            core.focus.rangeRestriction = restriction
            return nil
        }
    }

    var isSmoothAutoFocusSupportedBacking: Bool { hasAutoFocus }

    /// The checked form of setting `isSmoothAutoFocusEnabled` (Linux addition).
    public func setSmoothAutoFocusEnabled(_ enabled: Bool) throws(AVCaptureException) {
        try changeProperty(
            "setSmoothAutoFocusEnabled:", announcing: ["smoothAutoFocusEnabled"], supported: isSmoothAutoFocusSupported,
            unsupported: "Setting smoothAutoFocusEnabled is not supported by this device. Use isSmoothAutoFocusSupported"
        ) {
            core.focus.isSmoothEnabled = enabled
            return nil
        }
    }

    // MARK: Lens position

    var lensPositionBacking: Float { lastFrameMetadata.lensPosition }

    var minimumFocusDistanceBacking: Int { Int((descriptor.focus.minimumFocusDistance * 1000).rounded()) }

    var isLockingFocusWithCustomLensPositionSupportedBacking: Bool { hasAutoFocus && !isVirtualDevice }

    /// The checked form of `setFocusModeLocked(lensPosition:completionHandler:)` (Linux addition).
    public func setFocusModeLockedChecked(lensPosition: Float, completionHandler handler: ((CMTime) -> Void)? = nil) throws(AVCaptureException) {
        let selector = "setFocusModeLockedWithLensPosition:completionHandler:"
        try changeProperty(selector, announcing: ["focusMode"]) { () throws(AVCaptureException) -> ControlChange? in
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
            return focusChange(.lock(lensPosition: position), mode: .locked, handler: handler)
        }
    }

    private func focusChange(_ control: FocusControl, mode: FocusMode, handler: ((CMTime) -> Void)? = nil) -> ControlChange {
        ControlChange(.lens(id: 0, focus: control), completionHandler: handler, record: { [core] id in core.focus.mode = Requested(mode, request: id) })
    }

    /// The focus keys, in the order the device's key table lists them.
    static func focusObservableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.focusMode, "focusMode"),
            ObservableKey(\Root.focusPointOfInterest, "focusPointOfInterest"),
            ObservableKey(\Root.isAdjustingFocus, "adjustingFocus"),
            ObservableKey(\Root.lensPosition, "lensPosition"),
            ObservableKey(\Root.autoFocusRangeRestriction, "autoFocusRangeRestriction"),
            ObservableKey(\Root.isSmoothAutoFocusEnabled, "smoothAutoFocusEnabled"),
        ]
    }
}
