import Foundation

extension AVCaptureDevice {
    /// The newest frame's zoom once it carries the last zoom request, else the zoom set.
    var videoZoomFactorBacking: CGFloat {
        CGFloat(core.zoom.zoomInForce)
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
                core.zoom.withLock { $0.recordZoom(clamped, request: id, ramp: false) }
            })
        }
    }

    var minAvailableVideoZoomFactorBacking: CGFloat {
        guard let model = virtualCameras, let pinned = core.zoom.switching.pinned else { return 1 }
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
                core.zoom.withLock { $0.recordZoom(nil, request: id, ramp: true) }
            })
        }
    }

    /// The checked form of `cancelVideoZoomRamp()` (Linux addition).
    public func cancelVideoZoomRampChecked() throws(AVCaptureException) {
        try changeProperty("cancelVideoZoomRamp", announcing: ["rampingVideoZoom"]) { cancelRampChange }
    }

    var isRampingVideoZoomBacking: Bool {
        core.zoom.isRampingZoom
    }

    /// Stops a ramp where the zoom is now.
    private var cancelRampChange: ControlChange {
        ControlChange(.lens(id: 0, zoom: .cancelRamp), record: { [core] id in
            core.zoom.withLock { $0.recordZoom(nil, request: id, ramp: false) }
        })
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
