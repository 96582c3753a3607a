import Foundation

extension AVCaptureDevice {
    /// The newest frame's zoom once it carries the last zoom request, else the zoom set.
    var videoZoomFactorBacking: CGFloat {
        let (settings, frame) = core.state.withLock { ($0.lens, $0.lastFrame) }
        return frame.appliedRequest >= settings.zoomRequest && settings.zoomRequest > 0
            ? CGFloat(frame.zoomFactor) : settings.videoZoomFactor
    }

    /// The checked form of setting `videoZoomFactor` (Linux addition).
    public func setVideoZoomFactor(_ factor: CGFloat) throws(AVCaptureException) {
        let selector = "setVideoZoomFactor:"
        // A virtual device's constituent follows a zoom that crosses a switch-over factor:
        // announced only if it changed.
        try changeProperty(
            selector, announcing: ["videoZoomFactor", "rampingVideoZoom"], watching: ["activePrimaryConstituentDevice"]
        ) { () throws(AVCaptureException) -> ControlChange? in
            try checkZoomFactor(factor, selector: selector)
            let clamped = min(max(factor, minAvailableVideoZoomFactor), maxAvailableVideoZoomFactor)
            return ControlChange(.lens(id: 0, zoom: .set(factor: Double(clamped))), record: { [core] id in
                core.state.withLock {
                    $0.lens.videoZoomFactor = clamped
                    $0.lens.zoomRequest = id
                    $0.lens.rampRequest = 0
                }
            })
        }
    }

    var minAvailableVideoZoomFactorBacking: CGFloat {
        guard let model = virtualCameras, let pinned = core.state.withLock({ $0.switching.pinned }) else { return 1 }
        return CGFloat(model.baseZoom(ofConstituent: pinned))
    }
    var maxAvailableVideoZoomFactorBacking: CGFloat { activeFormat.videoMaxZoomFactor }

    /// The checked form of `ramp(toVideoZoomFactor:withRate:)` (Linux addition).
    public func rampChecked(toVideoZoomFactor factor: CGFloat, withRate rate: Float) throws(AVCaptureException) {
        let selector = "rampToVideoZoomFactor:withRate:"
        try changeProperty(selector, announcing: ["rampingVideoZoom"]) { () throws(AVCaptureException) -> ControlChange? in
            try checkZoomFactor(factor, selector: selector)
            guard rate != 0 else { return cancelRampChange }
            let clamped = min(max(factor, minAvailableVideoZoomFactor), maxAvailableVideoZoomFactor)
            return ControlChange(.lens(id: 0, zoom: .ramp(target: Double(clamped), rate: Double(abs(rate)))), record: { [core] id in
                core.state.withLock {
                    $0.lens.videoZoomFactor = CGFloat(Self.zoomInForce($0))
                    $0.lens.zoomRequest = id
                    $0.lens.rampRequest = id
                }
            })
        }
    }

    /// The checked form of `cancelVideoZoomRamp()` (Linux addition).
    public func cancelVideoZoomRampChecked() throws(AVCaptureException) {
        try changeProperty("cancelVideoZoomRamp", announcing: ["rampingVideoZoom"]) { cancelRampChange }
    }

    var isRampingVideoZoomBacking: Bool {
        let (settings, frame) = core.state.withLock { ($0.lens, $0.lastFrame) }
        if settings.rampRequest > 0 && frame.appliedRequest < settings.rampRequest { return true }
        return frame.isRampingVideoZoom && settings.rampRequest > 0
    }

    /// Stops a ramp where the zoom is now.
    private var cancelRampChange: ControlChange {
        ControlChange(.lens(id: 0, zoom: .cancelRamp), record: { [core] id in
            core.state.withLock {
                $0.lens.videoZoomFactor = CGFloat(Self.zoomInForce($0))
                $0.lens.zoomRequest = id
                $0.lens.rampRequest = 0
            }
        })
    }

    /// The zoom in force, from state already locked.
    private static func zoomInForce(_ state: DeviceCore.State) -> Double {
        state.lastFrame.appliedRequest >= state.lens.zoomRequest && state.lens.zoomRequest > 0
            ? state.lastFrame.zoomFactor : Double(state.lens.videoZoomFactor)
    }

    private func checkZoomFactor(_ factor: CGFloat, selector: String) throws(AVCaptureException) {
        let maximum = activeFormat.videoMaxZoomFactor
        guard factor >= 1, factor <= maximum else {
            throw AVCaptureException(.range, selectorReason("AVCaptureDevice", selector,
                "videoZoomFactor \(factor) is out of range [1, \(maximum)] - see activeFormat.videoMaxZoomFactor"))
        }
    }

    /// The zoom keys, in the order the device's key table lists them.
    static func zoomObservableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.videoZoomFactor, "videoZoomFactor"),
            ObservableKey(\Root.isRampingVideoZoom, "rampingVideoZoom"),
            ObservableKey(\Root.minAvailableVideoZoomFactor, "minAvailableVideoZoomFactor"),
            ObservableKey(\Root.maxAvailableVideoZoomFactor, "maxAvailableVideoZoomFactor"),
        ]
    }
}
