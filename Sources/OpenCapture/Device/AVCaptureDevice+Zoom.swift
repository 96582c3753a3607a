import Foundation

extension AVCaptureDevice {
    var videoZoomFactorBacking: CGFloat {
        get {
            let (settings, frame) = core.state.withLock { ($0.lens, $0.lastFrame) }
            return frame.appliedRequest >= settings.zoomRequest && settings.zoomRequest > 0
                ? CGFloat(frame.zoomFactor) : settings.videoZoomFactor
        }
        set { enforce { try setVideoZoomFactor(newValue) } }
    }

    /// The checked form of setting `videoZoomFactor` (Linux addition).
    public func setVideoZoomFactor(_ factor: CGFloat) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["videoZoomFactor", "rampingVideoZoom"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        // A virtual device's constituent follows a zoom that crosses a switch-over factor:
        // announced only if it changed.
        let constituent = KeyValueChange.watch(self, keys: ["activePrimaryConstituentDevice"])
        defer { constituent?.didChange() }
        let selector = "setVideoZoomFactor:"
        try requireLock(selector)
        try checkZoomFactor(factor, selector: selector)
        let clamped = min(max(factor, minAvailableVideoZoomFactor), maxAvailableVideoZoomFactor)
        let id = core.controls.enqueue(nil)
        core.state.withLock {
            $0.lens.videoZoomFactor = clamped
            $0.lens.zoomRequest = id
            $0.lens.rampRequest = 0
        }
        backend.apply(.lens(id: id, zoom: .set(factor: Double(clamped))))
    }

    var minAvailableVideoZoomFactorBacking: CGFloat {
        guard let model = virtualCameras, let pinned = core.state.withLock({ $0.switching.pinned }) else { return 1 }
        return CGFloat(model.baseZoom(ofConstituent: pinned))
    }
    var maxAvailableVideoZoomFactorBacking: CGFloat { activeFormat.videoMaxZoomFactor }

    func rampBacking(toVideoZoomFactor factor: CGFloat, withRate rate: Float) {
        enforce { try rampChecked(toVideoZoomFactor: factor, withRate: rate) }
    }

    /// The checked form of `ramp(toVideoZoomFactor:withRate:)` (Linux addition).
    public func rampChecked(toVideoZoomFactor factor: CGFloat, withRate rate: Float) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["rampingVideoZoom"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "rampToVideoZoomFactor:withRate:"
        try requireLock(selector)
        try checkZoomFactor(factor, selector: selector)
        guard rate != 0 else { return submitCancelRamp() }
        let clamped = min(max(factor, minAvailableVideoZoomFactor), maxAvailableVideoZoomFactor)
        let id = core.controls.enqueue(nil)
        core.state.withLock {
            $0.lens.videoZoomFactor = CGFloat(videoZoomFactorUnlocked($0))
            $0.lens.zoomRequest = id
            $0.lens.rampRequest = id
        }
        backend.apply(.lens(id: id, zoom: .ramp(target: Double(clamped), rate: Double(abs(rate)))))
    }

    func cancelVideoZoomRampBacking() {
        enforce { try cancelVideoZoomRampChecked() }
    }

    /// The checked form of `cancelVideoZoomRamp()` (Linux addition).
    public func cancelVideoZoomRampChecked() throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["rampingVideoZoom"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        try requireLock("cancelVideoZoomRamp")
        submitCancelRamp()
    }

    var isRampingVideoZoomBacking: Bool {
        let (settings, frame) = core.state.withLock { ($0.lens, $0.lastFrame) }
        if settings.rampRequest > 0 && frame.appliedRequest < settings.rampRequest { return true }
        return frame.isRampingVideoZoom && settings.rampRequest > 0
    }

    private func submitCancelRamp() {
        let id = core.controls.enqueue(nil)
        core.state.withLock {
            $0.lens.videoZoomFactor = CGFloat(videoZoomFactorUnlocked($0))
            $0.lens.zoomRequest = id
            $0.lens.rampRequest = 0
        }
        backend.apply(.lens(id: id, zoom: .cancelRamp))
    }

    /// The zoom in force, from state already locked.
    private func videoZoomFactorUnlocked(_ state: DeviceCore.State) -> Double {
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
}
