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

    @available(*, deprecated, message: "Use AVCapturePhotoOutput's isFlashScene instead.")
    var isFlashActiveBacking: Bool { isFlashAvailable && core.state.withLock { $0.flashMode } == .on }

    @available(*, deprecated, message: "Use AVCapturePhotoOutput's supportedFlashModes instead.")
    func isFlashModeSupportedBacking(_ flashMode: FlashMode) -> Bool {
        flashMode == .off || hasFlash
    }

    @available(*, deprecated, message: "Use AVCapturePhotoSettings.flashMode instead.")
    var flashModeBacking: FlashMode {
        get { core.state.withLock { $0.flashMode } }
        set { enforce { try setFlashModeChecked(newValue) } }
    }

    /// The checked form of setting the deprecated `flashMode` (Linux addition).
    public func setFlashModeChecked(_ mode: FlashMode) throws(AVCaptureException) {
        let selector = "setFlashMode:"
        try requireLock(selector)
        guard mode == .off || hasFlash else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureDevice", selector, "Unsupported flash mode \(mode.rawValue) - use isFlashModeSupported:"))
        }
        core.state.withLock { $0.flashMode = mode }
    }
}
