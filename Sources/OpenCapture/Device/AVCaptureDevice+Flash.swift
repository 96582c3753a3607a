import Foundation

extension AVCaptureDevice {
    /// Flash modes, for `AVCapturePhotoSettings.flashMode` (and the deprecated device `flashMode`).
    public enum FlashMode: Int, Sendable {
        case off = 0
        case on = 1
        case auto = 2
    }

    /// Whether the camera has a flash (the back cameras and the virtual devices made of them).
    public var hasFlash: Bool { (backend as? StillCapturing)?.hasFlash ?? false }
    /// Whether the flash can fire now.
    public var isFlashAvailable: Bool { hasFlash && isConnected }

    /// Whether the flash is lit or charged for the next still (deprecated on iOS 10, as
    /// on iOS it reports the still image output's flash, which `AVCapturePhotoOutput`
    /// replaced): true while `flashMode` is `.on` on an available flash.
    @available(*, deprecated, message: "Use AVCapturePhotoOutput's isFlashScene instead.")
    public var isFlashActive: Bool { isFlashAvailable && core.state.withLock { $0.flashMode } == .on }

    /// Whether the deprecated device `flashMode` can take `flashMode`: `.off` always,
    /// `.on` and `.auto` on a camera with a flash.
    @available(*, deprecated, message: "Use AVCapturePhotoOutput's supportedFlashModes instead.")
    public func isFlashModeSupported(_ flashMode: FlashMode) -> Bool {
        flashMode == .off || hasFlash
    }

    /// The device's flash mode (default `.off`; deprecated on iOS 10). As on iOS it is
    /// not what `AVCapturePhotoOutput` uses: photos take `AVCapturePhotoSettings.flashMode`.
    /// Setting it needs the configuration lock (else `NSGenericException`); an unsupported
    /// mode raises `NSInvalidArgumentException`.
    @available(*, deprecated, message: "Use AVCapturePhotoSettings.flashMode instead.")
    public var flashMode: FlashMode {
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
