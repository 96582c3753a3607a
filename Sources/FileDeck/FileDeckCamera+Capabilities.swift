import CaptureCore

extension FileDeckCamera: TransportControlling {
    package var transportControlsState: TransportState {
        let transport = transport
        return TransportState(playing: transport.playing, speed: transport.speed)
    }

    package var transportSpeedMagnitudes: ClosedRange<Float> { DeckTransport.speedMagnitudes }

    package func setTransportControlsState(_ state: TransportState) {
        setTransport { transport in
            transport.playing = state.playing
            transport.speed = state.speed
        }
    }

    /// The deck stops itself at an end of the file (when not looping).
    package func onTransportControlsChange(_ handler: @escaping @Sendable (TransportState) -> Void) {
        onTransportChange { old in handler(TransportState(playing: old.playing, speed: old.speed)) }
    }
}
