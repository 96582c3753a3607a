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

    /// The device's transport, for a device that has one (the file deck).
    private var transport: (any TransportControlling)? { backend as? any TransportControlling }

    var transportControlsSupportedBacking: Bool { transport != nil }

    var transportControlsPlaybackModeBacking: TransportControlsPlaybackMode {
        transport?.transportControlsState.playing == true ? .playing : .notPlaying
    }

    var transportControlsSpeedBacking: TransportControlsSpeed {
        transport?.transportControlsState.speed ?? 0
    }

    func setTransportControlsPlaybackModeBacking(_ mode: TransportControlsPlaybackMode, speed: TransportControlsSpeed) {
        enforce { try setTransportControlsPlaybackModeChecked(mode, speed: speed) }
    }

    /// The checked form of `setTransportControlsPlaybackMode(_:speed:)` (Linux addition).
    public func setTransportControlsPlaybackModeChecked(
        _ mode: TransportControlsPlaybackMode, speed: TransportControlsSpeed
    ) throws(AVCaptureException) {
        let selector = "setTransportControlsPlaybackMode:speed:"
        // Announced only once the speed is accepted (after the checks, unlike the other
        // setters), so the keys go inside the change rather than to `changeProperty`.
        try changeProperty(
            selector, supported: transport != nil,
            unsupported: "Transport controls are not supported - use transportControlsSupported"
        ) { () throws(AVCaptureException) -> ControlChange? in
            guard let transport else { return nil }
            guard transport.supportsTransportSpeed(speed) else {
                let range = transport.transportSpeedMagnitudes
                throw AVCaptureException(
                    .invalidArgument,
                    selectorReason(
                        "AVCaptureDevice", selector,
                        "Unsupported speed \(speed) - supported speeds are 0 and \(range.lowerBound) to \(range.upperBound) in either direction"))
            }
            let observed = KeyValueChange.willChange(self, keys: ["transportControlsPlaybackMode", "transportControlsSpeed"])
            defer { observed?.didChange() }
            transport.setTransportControlsState(TransportState(playing: mode == .playing, speed: speed))
            return nil
        }
    }

    /// Announces the transport changes the device makes itself (a deck stopping at the end
    /// of its file) to observers of `transportControlsPlaybackMode` and `transportControlsSpeed`.
    /// Called once, by the registry, when it makes the device.
    func followTransportChanges(of transport: any TransportControlling) {
        transport.onTransportControlsChange { [weak self] old in
            guard let self else { return }
            let queue = keyValueObservers.changeQueue
            let mode: TransportControlsPlaybackMode = old.playing ? .playing : .notPlaying
            KeyValueChange.didChange(self, key: "transportControlsPlaybackMode", from: mode, on: queue)
            KeyValueChange.didChange(self, key: "transportControlsSpeed", from: old.speed, on: queue)
        }
    }
}
