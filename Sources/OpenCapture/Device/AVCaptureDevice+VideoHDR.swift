import Foundation

extension AVCaptureDevice {
    var automaticallyAdjustsVideoHDREnabledBacking: Bool {
        get { core.state.withLock { $0.automaticallyAdjustsVideoHDR } }
        set { enforce { try setAutomaticallyAdjustsVideoHDREnabled(newValue) } }
    }

    /// The checked form of setting `automaticallyAdjustsVideoHDREnabled` (Linux addition).
    public func setAutomaticallyAdjustsVideoHDREnabled(_ automatic: Bool) throws(AVCaptureException) {
        try requireLock("setAutomaticallyAdjustsVideoHDREnabled:")
        let current = isVideoHDREnabled
        core.state.withLock { state in
            if state.automaticallyAdjustsVideoHDR && !automatic { state.videoHDREnabled = current }
            state.automaticallyAdjustsVideoHDR = automatic
        }
        for session in sessions { session.deviceDidChangeFrameDurations(self) }
    }

    var isVideoHDREnabledBacking: Bool {
        get {
            let state = core.state.withLock { ($0.automaticallyAdjustsVideoHDR, $0.videoHDREnabled) }
            return state.0 ? lastFrameMetadata.isVideoHDREnabled && activeFormat.isVideoHDRSupported : state.1
        }
        set { enforce { try setVideoHDREnabled(newValue) } }
    }

    /// The checked form of setting `isVideoHDREnabled` (Linux addition).
    public func setVideoHDREnabled(_ enabled: Bool) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["videoHDREnabled"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        let selector = "setVideoHDREnabled:"
        try requireLock(selector)
        guard !automaticallyAdjustsVideoHDREnabled else {
            throw AVCaptureException(
                .generic, selectorReason("AVCaptureDevice", selector, "May not be called while automaticallyAdjustsVideoHDREnabled is YES"))
        }
        guard !enabled || activeFormat.isVideoHDRSupported else {
            throw AVCaptureException(
                .generic, selectorReason("AVCaptureDevice", selector, "Not supported by the active format - use activeFormat.isVideoHDRSupported"))
        }
        core.state.withLock { $0.videoHDREnabled = enabled }
        for session in sessions { session.deviceDidChangeFrameDurations(self) }
    }

    /// What the backend is asked for: automatic on an HDR format while the device adjusts
    /// HDR itself, on or off as set otherwise.
    var videoHDRMode: VideoHDRMode {
        let state = core.state.withLock { ($0.automaticallyAdjustsVideoHDR, $0.videoHDREnabled) }
        guard activeFormat.isVideoHDRSupported else { return .off }
        if state.0 { return .automatic }
        return state.1 ? .on : .off
    }
}
