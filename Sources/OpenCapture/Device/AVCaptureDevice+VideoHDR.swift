import Foundation

extension AVCaptureDevice {
    /// The checked form of setting `automaticallyAdjustsVideoHDREnabled` (Linux addition).
    public func setAutomaticallyAdjustsVideoHDREnabled(_ automatic: Bool) throws(AVCaptureException) {
        try changeProperty("setAutomaticallyAdjustsVideoHDREnabled:") {
            core.format.setAutomaticallyAdjustsVideoHDR(automatic, current: isVideoHDREnabled)
            for session in sessions { session.deviceDidChangeFrameDurations(self) }
            return nil
        }
    }

    /// What the newest frame did while the device adjusts HDR itself, else what was set.
    var isVideoHDREnabledBacking: Bool {
        let (automatic, enabled) = core.format.videoHDR
        return automatic ? lastFrameMetadata.isVideoHDREnabled && activeFormat.isVideoHDRSupported : enabled
    }

    /// The checked form of setting `isVideoHDREnabled` (Linux addition).
    public func setVideoHDREnabled(_ enabled: Bool) throws(AVCaptureException) {
        let selector = "setVideoHDREnabled:"
        try changeProperty(selector, announcing: ["videoHDREnabled"]) { () throws(AVCaptureException) -> ControlChange? in
            guard !automaticallyAdjustsVideoHDREnabled else {
                throw AVCaptureException(
                    .generic, selectorReason("AVCaptureDevice", selector, "May not be called while automaticallyAdjustsVideoHDREnabled is YES"))
            }
            guard !enabled || activeFormat.isVideoHDRSupported else {
                throw AVCaptureException(
                    .generic, selectorReason("AVCaptureDevice", selector, "Not supported by the active format - use activeFormat.isVideoHDRSupported"))
            }
            core.format.videoHDREnabled = enabled
            for session in sessions { session.deviceDidChangeFrameDurations(self) }
            return nil
        }
    }

    /// What the backend is asked for: automatic on an HDR format while the device adjusts
    /// HDR itself, on or off as set otherwise.
    var videoHDRMode: VideoHDRMode {
        let (automatic, enabled) = core.format.videoHDR
        guard activeFormat.isVideoHDRSupported else { return .off }
        if automatic { return .automatic }
        return enabled ? .on : .off
    }
}

extension AVCaptureDevice {
    /// The video HDR key, where the device's key table lists it.
    static func videoHDRObservableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>] {
        [ObservableKey(\Root.isVideoHDREnabled, "videoHDREnabled")]
    }
}
