import Synchronization

/// Focus, zoom and torch state that outlives a stream (a restarted camera keeps its lens
/// position, zoom and torch), written by the capture thread at the end of each frame.
final class LensControls: Sendable {
    struct Memory: Sendable {
        var focus = AutoFocus.Memory()
        var zoom = ZoomRamp()
        var torch = Torch()
        /// The simulation's `SimulatedCamera.zoomFactor` last seen (a change there sets the zoom).
        var seenZoomFactor: Double = 1
    }

    private let memory = Mutex(Memory())

    var current: Memory { memory.withLock { $0 } }

    func store(_ new: Memory) { memory.withLock { $0 = new } }
}
