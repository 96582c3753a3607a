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

    /// Whether the device has a transport to control: true for a file deck
    /// (`AVCaptureDevice.fileDeck(url:)`), false for every camera (V4L2 does not reach
    /// FireWire decks; the simulated cameras are phone cameras), as macOS reports for a webcam.
    public var transportControlsSupported: Bool { backend is FileDeckCamera }

    /// The transport's mode: a deck's, else `.notPlaying`.
    ///
    /// A deck `.playing` delivers frames (at speed 0 it holds still and delivers none);
    /// `.notPlaying` delivers none: as Apple says, the tape is not threaded through the play
    /// head, so no picture reaches the device. Photo outputs then take the frame shown last.
    public var transportControlsPlaybackMode: TransportControlsPlaybackMode {
        guard let deck = backend as? FileDeckCamera else { return .notPlaying }
        return deck.transport.playing ? .playing : .notPlaying
    }

    /// The transport's speed: a deck's, else 0.
    public var transportControlsSpeed: TransportControlsSpeed {
        (backend as? FileDeckCamera)?.transport.speed ?? 0
    }

    /// Puts the transport in `mode` at `speed`. Needs the configuration lock
    /// (NSGenericException without it, as the seed says); a device without transport controls
    /// raises NSInvalidArgumentException.
    ///
    /// A file deck plays at 0 (still) or 0.25 to 8 times normal speed either way (negative:
    /// backwards, frame-exactly, decoding each group of pictures backwards); another speed
    /// raises NSInvalidArgumentException. The change lands at the next frame: that frame is
    /// the neighbour, in the new direction, of the last frame delivered. Frames keep rising
    /// timestamps on the session clock at every speed. Key-value observers of
    /// `transportControlsPlaybackMode` and `transportControlsSpeed` are told on the calling
    /// thread; at an end of the file (see `AVCaptureDevice.Deck.loops`) on the device's queue.
    public func setTransportControlsPlaybackMode(_ mode: TransportControlsPlaybackMode, speed: TransportControlsSpeed) {
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
