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

    /// The checked form of setting `exposureMode` (Linux addition).
    public func setExposureMode(_ mode: ExposureMode) throws(AVCaptureException) {
        try changeProperty(
            "setExposureMode:", announcing: ["exposureMode"], supported: isExposureModeSupported(mode),
            unsupported: "Unsupported exposure mode \(mode.rawValue) - use isExposureModeSupported:"
        ) {
            let control: ExposureControl =
                switch mode {
                case .locked: .lockCurrent
                case .autoExpose: .autoOnce
                case .continuousAutoExposure: .continuous
                case .custom: .custom(duration: nil, iso: nil)
                }
            let point = core.exposure.pointOfInterest
            return exposureChange(ControlRequest(id: 0, exposure: control, exposurePointOfInterest: PointOfInterest(x: point.x, y: point.y)), mode: mode)
        }
        noteSwitchingCondition(.exposureModeChanged)
    }

    var isAdjustingExposureBacking: Bool { lastFrameMetadata.isAdjustingExposure }

    // MARK: Point of interest

    var isExposurePointOfInterestSupportedBacking: Bool { isExposureModeSupported(.continuousAutoExposure) }

    /// The checked form of setting `exposurePointOfInterest` (Linux addition).
    public func setExposurePointOfInterest(_ point: CGPoint) throws(AVCaptureException) {
        try changeProperty(
            "setExposurePointOfInterest:", announcing: ["exposurePointOfInterest"], supported: isExposurePointOfInterestSupported,
            unsupported: "Setting exposurePointOfInterest is not supported by this device."
        ) {
            core.exposure.pointOfInterest = CGPoint(x: min(max(point.x, 0), 1), y: min(max(point.y, 0), 1))
            return nil
        }
    }

    // MARK: Custom exposure

    var exposureTargetOffsetBacking: Float { lastFrameMetadata.exposureTargetOffset }

    /// The checked form of `setExposureModeCustom(duration:iso:completionHandler:)` (Linux addition).
    public func setExposureModeCustomChecked(duration: CMTime, iso ISO: Float, completionHandler handler: ((CMTime) -> Void)? = nil) throws(AVCaptureException) {
        let selector = "setExposureModeCustomWithDuration:ISO:completionHandler:"
        try changeProperty(
            selector, announcing: ["exposureMode"], supported: isExposureModeSupported(.custom),
            unsupported: "Unsupported exposure mode AVCaptureExposureModeCustom - use isExposureModeSupported:"
        ) { () throws(AVCaptureException) -> ControlChange? in
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
            return exposureChange(ControlRequest(id: 0, exposure: .custom(duration: seconds, iso: gain)), mode: .custom, handler: handler)
        }
    }

    // MARK: Bias

    var minExposureTargetBiasBacking: Float { isExposureModeSupported(.continuousAutoExposure) ? -8 : 0 }
    var maxExposureTargetBiasBacking: Float { isExposureModeSupported(.continuousAutoExposure) ? 8 : 0 }

    /// The checked form of `setExposureTargetBias(_:completionHandler:)` (Linux addition).
    public func setExposureTargetBiasChecked(_ bias: Float, completionHandler handler: ((CMTime) -> Void)? = nil) throws(AVCaptureException) {
        let selector = "setExposureTargetBias:completionHandler:"
        try changeProperty(selector, announcing: ["exposureTargetBias"]) { () throws(AVCaptureException) -> ControlChange? in
            let value = bias == Self.currentExposureTargetBias ? exposureTargetBias : bias
            guard value >= minExposureTargetBias, value <= maxExposureTargetBias else {
                throw AVCaptureException(.range, selectorReason("AVCaptureDevice", selector,
                    "Exposure target bias \(bias) is out of range [\(minExposureTargetBias), \(maxExposureTargetBias)]"))
            }
            core.exposure.targetBias = value
            return ControlChange(ControlRequest(id: 0, exposureTargetBias: value), completionHandler: handler)
        }
    }

    // MARK: Limits

    /// The cap set, else the active format's longest exposure.
    var activeMaxExposureDurationBacking: CMTime {
        let chosen = core.exposure.maxExposureDuration
        return chosen.isValid ? chosen : activeFormat.maxExposureDuration
    }

    /// The checked form of setting `activeMaxExposureDuration` (Linux addition).
    public func setActiveMaxExposureDuration(_ duration: CMTime) throws(AVCaptureException) {
        let selector = "setActiveMaxExposureDuration:"
        try changeProperty(selector, announcing: ["activeMaxExposureDuration"]) { () throws(AVCaptureException) -> ControlChange? in
            let format = activeFormat
            if duration.isValid {
                guard duration >= format.minExposureDuration, duration <= format.maxExposureDuration else {
                    throw AVCaptureException(.range, selectorReason("AVCaptureDevice", selector,
                        "Duration \(duration.seconds) s is out of range [\(format.minExposureDuration.seconds), \(format.maxExposureDuration.seconds)]"))
                }
            }
            core.exposure.maxExposureDuration = duration.isValid ? duration : .invalid
            return ControlChange(ControlRequest(id: 0, activeMaxExposureDuration: duration.isValid ? duration.seconds : 0))
        }
    }

    private func exposureChange(_ request: ControlRequest, mode: ExposureMode, handler: ((CMTime) -> Void)? = nil) -> ControlChange {
        ControlChange(request, completionHandler: handler, record: { [core] id in core.exposure.mode = Requested(mode, request: id) })
    }

    /// The exposure keys, in the order the device's key table lists them.
    static func exposureObservableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.exposureMode, "exposureMode"),
            ObservableKey(\Root.exposurePointOfInterest, "exposurePointOfInterest"),
            ObservableKey(\Root.isAdjustingExposure, "adjustingExposure"),
            ObservableKey(\Root.exposureDuration, "exposureDuration"),
            ObservableKey(\Root.iso, "ISO"),
            ObservableKey(\Root.exposureTargetOffset, "exposureTargetOffset"),
            ObservableKey(\Root.exposureTargetBias, "exposureTargetBias"),
            ObservableKey(\Root.activeMaxExposureDuration, "activeMaxExposureDuration"),
        ]
    }
}
