import Foundation

extension AVCaptureDevice {
    /// Whether the device may switch video HDR on and off by itself (default true).
    ///
    /// Apple turns HDR on with a session preset when the preset suits it; on Linux the
    /// simulated camera decides from the scene instead, frame by frame: on an HDR-capable
    /// format it merges a short exposure in when the scene overflows one exposure at both
    /// ends (more than 2 % of samples clipped and more than 2 % near black, for 3 frames) and
    /// stops after 15 frames in which the long exposure no longer clips. `isVideoHDREnabled`
    /// then reports what the camera does. Setting this needs the configuration lock; setting
    /// it to false keeps HDR as it is now (on only if it is on now).
    public var automaticallyAdjustsVideoHDREnabled: Bool {
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

    /// Whether video HDR is on: each frame merges a long and a 16× shorter exposure and a
    /// tone curve fits the result into the output (see the simulated camera's `HDRMerge`).
    ///
    /// With `automaticallyAdjustsVideoHDREnabled` it reports what the camera did in its newest
    /// frame. Setting it needs the configuration lock and raises `NSGenericException` while
    /// the device adjusts HDR automatically, or when turning it on and the active format
    /// does not support it (`Format.isVideoHDRSupported`). Setting `activeFormat` (or a
    /// session preset) turns it off, as on iOS.
    public var isVideoHDREnabled: Bool {
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
