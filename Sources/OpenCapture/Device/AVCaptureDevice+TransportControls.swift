import Foundation

extension AVCaptureDevice {
    /// Whether a tape transport (a DV deck or camcorder) plays: seed 000's
    /// `AVCaptureDeviceTransportControlsPlaybackMode` (macOS API).
    public enum TransportControlsPlaybackMode: Int, Sendable {
        case notPlaying = 0
        case playing = 1
    }

    /// Tape speed: 0 stopped, 1 normal forward, −1 normal reverse, other values faster or
    /// slower winding (macOS API).
    public typealias TransportControlsSpeed = Float

    /// Whether the device has a tape transport to control. No camera OpenCapture drives has
    /// one (V4L2 does not reach FireWire decks; the simulated cameras are phone cameras), so
    /// this is false, as macOS reports for a webcam.
    public var transportControlsSupported: Bool { false }

    /// The transport's mode: `.notPlaying` on a device without one.
    public var transportControlsPlaybackMode: TransportControlsPlaybackMode { .notPlaying }

    /// The transport's speed: 0 on a device without one.
    public var transportControlsSpeed: TransportControlsSpeed { 0 }

    /// Puts the transport in `mode` at `speed`. Needs the configuration lock
    /// (NSGenericException without it, as the seed says); a device without transport controls
    /// raises NSInvalidArgumentException.
    public func setTransportControlsPlaybackMode(_ mode: TransportControlsPlaybackMode, speed: TransportControlsSpeed) {
        enforce { try setTransportControlsPlaybackModeChecked(mode, speed: speed) }
    }

    /// The checked form of `setTransportControlsPlaybackMode(_:speed:)` (Linux addition).
    public func setTransportControlsPlaybackModeChecked(
        _ mode: TransportControlsPlaybackMode, speed: TransportControlsSpeed
    ) throws(AVCaptureException) {
        let selector = "setTransportControlsPlaybackMode:speed:"
        try requireLock(selector)
        guard transportControlsSupported else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureDevice", selector, "Transport controls are not supported - use transportControlsSupported"))
        }
    }
}
