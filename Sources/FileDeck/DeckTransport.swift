import CaptureCore

/// A file deck's transport: whether it plays, how fast and which way, and what it does at
/// either end of the file. The values of `AVCaptureDevice`'s transport controls.
package struct DeckTransport: Sendable, Equatable {
    /// `AVCaptureDevice.TransportControlsPlaybackMode`'s raw value: 0 not playing, 1 playing.
    package var playing = true
    /// Frames per frame interval of the file: 1 real time, −1 real time backwards, 0 still.
    package var speed: Float = 1
    /// At the end (forwards) or the start (backwards): wrap around, instead of stopping.
    package var loops = false
    /// Real time, or as fast as the consumers take frames.
    package var pacing = Pacing.realTime
    /// Counts changes, so the playback thread sees each at its next frame boundary.
    package var generation: UInt64 = 0

    package init() {}

    /// The slowest and fastest speeds a deck plays at, either way (besides 0, a still).
    package static let speedMagnitudes: ClosedRange<Float> = 0.25...8

    /// Whether a deck can play at `speed`.
    package static func isSupported(_ speed: Float) -> Bool {
        speed == 0 || speedMagnitudes.contains(abs(speed))
    }

    /// Whether frames are delivered: playing at a speed other than 0.
    package var isMoving: Bool { playing && speed != 0 }
}
