import CaptureCore
import Synchronization

/// What a simulated camera's stream allocates that the next stream can use again: the
/// render gang's threads, the renderer (static layer, noise table, scratch rows) with the
/// defocus state of its layer, the zoom-ramp helpers, and the pixel buffer pool.
///
/// Why: a restart used to make all of it anew, megabytes to tens of megabytes per start
/// plus new threads, and the freed blocks fragmented malloc's heaps (RSS grew about
/// 1.5 MB a restart). Now a stream takes these from its camera's `Cache` at start and
/// gives them back when its capture thread ends, so a restart at the same size allocates
/// no large block and rasterises nothing it already has. A start at another size or pixel
/// format frees the old layer or pool before making the new one, so one size at most is
/// kept; `Cache.purge()` frees everything.
///
/// Thread safety: used by one capture thread at a time (the stream holding it).
final class StreamResources: @unchecked Sendable {
    let workers: RenderWorkers
    /// The renderer of the last stream (nil before the first).
    private(set) var renderer: FrameRenderer?
    /// Defocus and torch light on the renderer's layer (replaced when a zoom ramp's
    /// finished layer is adopted with its own).
    var defocus = Defocus()
    let resampler = ZoomResampler()
    let builder: ZoomReferenceBuilder
    private(set) var pool: CVPixelBufferPool?
    private var poolKey: PoolKey?
    /// Whether a buffer of `pool` may carry a raw mosaic from an earlier frame.
    var poolMayCarryRaw = false

    private struct PoolKey: Equatable {
        var pixelFormat: PixelFormat
        var width: Int
        var height: Int
        var maximumBufferCount: Int
        var colorSpace: Int
    }

    /// `name` prefixes the threads' and queues' names ("OpenCapture.sim.<id>").
    init(name: String) {
        workers = RenderWorkers(name: "\(name).render")
        builder = ZoomReferenceBuilder(name: "\(name).zoom")
    }

    deinit {
        workers.shutdown()
    }

    /// The renderer, set to `scene` (a new seed remakes the noise; new content drops the
    /// layer); made on first use. `prepare` then checks size, zoom, lens and light.
    func renderer(scene: Scene, optics: Optics) -> FrameRenderer {
        if let renderer {
            renderer.setScene(scene)
            renderer.substitute = nil
            return renderer
        }
        let made = FrameRenderer(scene: scene, optics: optics, workers: workers)
        renderer = made
        return made
    }

    /// A pool of `pixelFormat` buffers of `format`'s size: the kept one if it matches (its
    /// buffers still held by consumers of an earlier stream are let go of, so the new stream
    /// starts with its whole budget, as with a new pool), else a new one.
    func pool(
        _ pixelFormat: PixelFormat, _ format: DeviceFormatSpec, maximumBufferCount: Int, colorSpace: Int
    ) -> CVPixelBufferPool {
        let key = PoolKey(
            pixelFormat: pixelFormat, width: format.width, height: format.height, maximumBufferCount: maximumBufferCount,
            colorSpace: colorSpace)
        if let pool, poolKey == key {
            pool.forgetHeldBuffers()
            return pool
        }
        pool = nil  // the old buffers go before the new ones are made
        poolMayCarryRaw = false
        let made = CVPixelBufferPool(
            format: pixelFormat, width: format.width, height: format.height, minimumBufferCount: min(3, maximumBufferCount),
            maximumBufferCount: maximumBufferCount,
            attachments: OutputColorSpace.attachments(for: pixelFormat, colorSpace: colorSpace))
        pool = made
        poolKey = key
        return made
    }

    /// Called by the capture thread as its stream ends: waits for a zoom reference being
    /// built and drops it (the next stream may see another scene).
    func streamEnded() {
        builder.settle()
    }

    /// The resources a camera keeps between its streams.
    final class Cache: Sendable {
        private let kept = Mutex<StreamResources?>(nil)

        /// The kept resources, handed over (nil if none are kept).
        func take() -> StreamResources? { kept.withLock { $0.take() } }

        /// Keeps `resources` for the next stream (the newest wins if two streams ended).
        func give(_ resources: StreamResources) {
            let replaced = kept.withLock { kept -> StreamResources? in
                defer { kept = resources }
                return kept
            }
            withExtendedLifetime(replaced) {}  // freed here, outside the lock
        }

        /// Frees what is kept (layer, pool, threads); a stream running now keeps its own.
        func purge() {
            let kept = take()
            withExtendedLifetime(kept) {}
        }

        /// Whether anything is kept (for tests).
        var isHolding: Bool { kept.withLock { $0 != nil } }

        /// What is kept, left in place (for tests).
        func peek() -> StreamResources? { kept.withLock { $0 } }
    }
}
