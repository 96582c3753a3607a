/// Whether a transport plays, and how fast.
package struct TransportState: Sendable, Equatable {
    /// Whether the transport is playing (at speed 0 it shows a still).
    package var playing: Bool
    /// 0 stopped, 1 forward, −1 reverse, other values faster or slower.
    package var speed: Float

    package init(playing: Bool, speed: Float) {
        self.playing = playing
        self.speed = speed
    }
}

/// Devices with a tape-deck transport (the file deck): what
/// `AVCaptureDevice.transportControlsSupported` and its setter reach.
///
/// Threads: every member may be called on any thread; the handler runs on the backend's
/// playback thread.
package protocol TransportControlling: AnyObject, Sendable {
    /// The transport now.
    var transportControlsState: TransportState { get }
    /// The slowest and fastest speeds besides 0, in either direction.
    var transportSpeedMagnitudes: ClosedRange<Float> { get }
    /// Changes the transport; it applies at the next frame boundary.
    func setTransportControlsState(_ state: TransportState)
    /// Sets what runs when the device changes its own transport (it stopped at an end),
    /// with the transport as it was before.
    func onTransportControlsChange(_ handler: @escaping @Sendable (TransportState) -> Void)
}

extension TransportControlling {
    /// Whether the transport can play at `speed`: 0 or a magnitude in the supported range.
    package func supportsTransportSpeed(_ speed: Float) -> Bool {
        speed == 0 || transportSpeedMagnitudes.contains(abs(speed))
    }
}
