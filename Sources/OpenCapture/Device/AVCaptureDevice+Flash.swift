import Foundation

extension AVCaptureDevice {
    /// Flash modes, for `AVCapturePhotoSettings.flashMode` (and the deprecated device `flashMode`).
    public enum FlashMode: Int, Sendable {
        case off = 0
        case on = 1
        case auto = 2
    }

    var hasFlashBacking: Bool { (backend as? StillCapturing)?.hasFlash ?? false }
    var isFlashAvailableBacking: Bool { hasFlash && isConnected }

    /// Whether the flash would fire for the next still: `.on`, or `.auto` while the
    /// streaming camera's scene is dark enough for it (the rule `AVCapturePhotoOutput`
    /// uses for `isFlashScene` and for an `.auto` photo: the newest frame's ISO at or above
    /// `PhotoCapture.autoFlashISO`). Camera-driven under `.auto`: it is compared per frame
    /// and announced on the device's change queue.
    @available(*, deprecated, message: "Use AVCapturePhotoOutput's isFlashScene instead.")
    var isFlashActiveBacking: Bool {
        guard isFlashAvailable else { return false }
        let mode = core.torchFlash.flashMode
        let streaming = core.sessionLinks.streaming != nil
        let iso = lastFrameMetadata.iso
        switch mode {
        case .on: return true
        case .auto: return streaming && iso >= PhotoCapture.autoFlashISO
        case .off: return false
        }
    }

    @available(*, deprecated, message: "Use AVCapturePhotoOutput's supportedFlashModes instead.")
    func isFlashModeSupportedBacking(_ flashMode: FlashMode) -> Bool {
        flashMode == .off || hasFlash
    }

    /// The checked form of setting the deprecated `flashMode` (Linux addition).
    public func setFlashModeChecked(_ mode: FlashMode) throws(AVCaptureException) {
        try changeProperty(
            "setFlashMode:", announcing: ["flashMode", "flashActive"], supported: mode == .off || hasFlash,
            unsupported: "Unsupported flash mode \(mode.rawValue) - use isFlashModeSupported:"
        ) {
            core.torchFlash.flashMode = mode
            return nil
        }
    }
}
