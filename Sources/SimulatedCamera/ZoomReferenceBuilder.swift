import Dispatch
import Synchronization

/// Rasterises zoom-ramp reference layers on a background queue, so a ramp never stalls a
/// frame on a rasterisation: while frames are resampled from the current reference, the next
/// one (and the final, sharp layer at the ramp's target) is filled, defocused and lit here.
///
/// One build at a time; the capture thread polls for the result with `take`.
final class ZoomReferenceBuilder: @unchecked Sendable {
    /// A finished reference: the layer and the defocus state that made it (its sharp copy and
    /// depth mask), so the stream can adopt both.
    final class Built: @unchecked Sendable {
        let layer: StaticLayer
        let defocus: Defocus
        init(layer: StaticLayer, defocus: Defocus) {
            self.layer = layer
            self.defocus = defocus
        }
        var zoom: Double { layer.zoom }
    }

    /// What to build.
    struct Job: @unchecked Sendable {
        var zoom: Double
        var width: Int
        var height: Int
        var scene: Scene
        var optics: Optics
        var color: ColorTransform
        var effect: @Sendable (Float) -> Defocus.Effect
    }

    private let queue: DispatchQueue
    private let workers: RenderWorkers
    private let state = Mutex<(busyZoom: Double?, ready: Built?)>((nil, nil))

    init(name: String) {
        queue = DispatchQueue(label: name, qos: .userInitiated)
        // One part: the queue's thread does all the work, so the render gang is left alone.
        workers = RenderWorkers(parts: 1, name: name)
    }

    /// The zoom being built or ready, if any.
    var pendingZoom: Double? { state.withLock { $0.ready?.zoom ?? $0.busyZoom } }

    /// The finished reference, if it exists and `accept` takes it (it is then handed over).
    func take(where accept: (Double) -> Bool) -> Built? {
        state.withLock { state in
            guard let ready = state.ready, accept(ready.zoom) else { return nil }
            state.ready = nil
            return ready
        }
    }

    /// Drops a finished reference nobody wants (e.g. the ramp was cancelled).
    func discard() { state.withLock { $0.ready = nil } }

    /// Waits for a build in progress, then drops what it made: the next stream to use the
    /// builder may look at another scene.
    func settle() {
        queue.sync {}
        discard()
    }

    /// Starts building `job` unless a build runs or waits to be taken.
    func request(_ job: Job) {
        let accepted = state.withLock { state -> Bool in
            guard state.busyZoom == nil, state.ready == nil else { return false }
            state.busyZoom = job.zoom
            return true
        }
        guard accepted else { return }
        queue.async { [self] in
            var layer = StaticLayer(width: job.width, height: job.height, zoom: job.zoom, color: job.color)
            layer.fill(rows: 0..<job.height, scene: job.scene, optics: job.optics)
            let defocus = Defocus()
            defocus.update(layer, refilled: true, scene: job.scene, workers: workers, replace: { layer = $0 }, effect: job.effect)
            let built = Built(layer: layer, defocus: defocus)
            state.withLock {
                $0.busyZoom = nil
                $0.ready = built
            }
        }
    }
}
