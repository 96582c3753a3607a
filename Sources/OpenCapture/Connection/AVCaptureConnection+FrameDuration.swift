import Foundation

/// The connection frame-rate controls of iOS 5–6 (deprecated in iOS 7, AVCaptureSession.h).
/// On iOS a camera runs at one rate for all its outputs, so a video connection's frame
/// durations govern its camera: setting one sets the device's `activeVideoMinFrameDuration`
/// (or max), taking the configuration lock for the call; `.zero` and `.invalid` restore the
/// format's default. Values the active format does not support raise as the device does.
/// Connections without a camera's video port do not support them (setting raises
/// `NSInvalidArgumentException`).
extension AVCaptureConnection {
    /// Whether the connection carries a camera's video, whose rate it may set.
    var framesFromCamera: AVCaptureDevice? {
        guard inputPorts.first?.mediaType == .video, let device, device.hasMediaType(.video) else { return nil }
        return device
    }

    /// The checked form of setting `videoMinFrameDuration` / `videoMaxFrameDuration` (Linux addition).
    public func setVideoFrameDuration(_ duration: CMTime, minimum: Bool) throws(AVCaptureException) {
        let selector = minimum ? "setVideoMinFrameDuration:" : "setVideoMaxFrameDuration:"
        guard let device = framesFromCamera else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureConnection", selector, "Frame durations are not supported by this connection"))
        }
        let requested = duration.isValid && duration != .zero ? duration : .invalid
        // The device lock is a count: taking it here leaves the app's own lock as it was.
        let locked = (try? device.lockForConfiguration()) != nil
        defer { if locked { device.unlockForConfiguration() } }
        if minimum {
            try device.setActiveVideoMinFrameDuration(requested)
        } else {
            try device.setActiveVideoMaxFrameDuration(requested)
        }
        settings.withLock {
            if minimum { $0.minFrameDuration = duration } else { $0.maxFrameDuration = duration }
        }
    }
}
