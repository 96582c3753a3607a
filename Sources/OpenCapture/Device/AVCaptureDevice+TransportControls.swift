import FileDeck
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

    var transportControlsSupportedBacking: Bool { backend is FileDeckCamera }

    var transportControlsPlaybackModeBacking: TransportControlsPlaybackMode {
        guard let deck = backend as? FileDeckCamera else { return .notPlaying }
        return deck.transport.playing ? .playing : .notPlaying
    }

    var transportControlsSpeedBacking: TransportControlsSpeed {
        (backend as? FileDeckCamera)?.transport.speed ?? 0
    }

    func setTransportControlsPlaybackModeBacking(_ mode: TransportControlsPlaybackMode, speed: TransportControlsSpeed) {
        enforce { try setTransportControlsPlaybackModeChecked(mode, speed: speed) }
    }

    /// The checked form of `setTransportControlsPlaybackMode(_:speed:)` (Linux addition).
    public func setTransportControlsPlaybackModeChecked(
        _ mode: TransportControlsPlaybackMode, speed: TransportControlsSpeed
    ) throws(AVCaptureException) {
        let selector = "setTransportControlsPlaybackMode:speed:"
        try requireLock(selector)
        guard let deck = backend as? FileDeckCamera else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureDevice", selector, "Transport controls are not supported - use transportControlsSupported"))
        }
        guard DeckTransport.isSupported(speed) else {
            let range = DeckTransport.speedMagnitudes
            throw AVCaptureException(
                .invalidArgument,
                selectorReason(
                    "AVCaptureDevice", selector,
                    "Unsupported speed \(speed) - supported speeds are 0 and \(range.lowerBound) to \(range.upperBound) in either direction"))
        }
        let observed = KeyValueChange.willChange(self, keys: ["transportControlsPlaybackMode", "transportControlsSpeed"])
        defer { observed?.didChange() }
        deck.setTransport { transport in
            transport.playing = mode == .playing
            transport.speed = speed
        }
    }
}
