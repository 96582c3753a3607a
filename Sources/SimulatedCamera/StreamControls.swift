import CaptureCore
import Synchronization

/// Settings a client changes while a stream runs, read by the capture thread once per
/// frame, so a change lands exactly at a frame boundary.
final class StreamControls: Sendable {
    struct Values: Sendable {
        /// cd/m² of the scene's diffuse white.
        var luminanceScale: Float = 200
        /// Digital zoom, ≥ 1.
        var zoomFactor: Double = 1
        /// A configuration waiting for the next frame boundary.
        var pendingConfiguration: StreamConfiguration?
    }

    private let values = Mutex(Values())

    /// A copy of the current values; takes the pending configuration if `takingPending`.
    func snapshot(takingPending: Bool) -> Values {
        values.withLock { current in
            let copy = current
            if takingPending { current.pendingConfiguration = nil }
            return copy
        }
    }

    func modify(_ change: (inout Values) -> Void) {
        values.withLock { change(&$0) }
    }
}
