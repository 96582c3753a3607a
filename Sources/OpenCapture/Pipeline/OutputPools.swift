import CaptureCore

/// The pools a video data output's converted frames come from (turned, mirrored, another
/// pixel format, scaled), kept by the output across runs.
///
/// Why: they used to live in each run's `FrameRouter`, so every restart made new buffers
/// and freed the old ones. Now a restart at the same size finds its buffers here; a new
/// run lets go of the buffers an app still holds from the last one, so it starts with the
/// whole budget of `FrameRouter.outputPoolSize`, as a new pool would.
///
/// Thread safety: the pool references are only read and replaced under `lock`. A new run's
/// route is made (`beginRun`) while the last run's capture thread may still be delivering
/// into the same output (a camera switch, or a connection replaced in a running session);
/// an unguarded reference read on one thread while another replaces it is a data race that
/// over-releases the pool (it crashed the session stress test once).
final class OutputPools: Sendable {
    enum Stage {
        /// Frames at the size delivered.
        case delivered
        /// Full-size turned frames waiting to be scaled, when the output asks for a smaller size.
        case turned
    }

    private struct Pools {
        var delivered: CVPixelBufferPool?
        var turned: CVPixelBufferPool?
    }

    private let lock = Mutex(Pools())

    /// A new run starts using the pools.
    func beginRun() {
        let pools = lock.withLock { $0 }
        pools.delivered?.forgetHeldBuffers()
        pools.turned?.forgetHeldBuffers()
    }

    /// The stage's pool if it makes buffers of this kind, else a new one in its place, whose
    /// buffers carry `source`'s attachments (colour tags) but not its raw mosaic.
    func pool(_ stage: Stage, format: PixelFormat, width: Int, height: Int, attachmentsOf source: CVPixelBuffer) -> CVPixelBufferPool {
        let current = lock.withLock { stage == .delivered ? $0.delivered : $0.turned }
        if let current, current.format == format, current.width == width, current.height == height { return current }
        let attachments = source.attachmentStore.withLock { $0 }.filter { $0.key != kOpenCaptureRawMosaicKey }
        // The old buffers go before the new ones are made.
        lock.withLock { if stage == .delivered { $0.delivered = nil } else { $0.turned = nil } }
        let made = CVPixelBufferPool(
            format: format, width: width, height: height, minimumBufferCount: 2,
            maximumBufferCount: FrameRouter.outputPoolSize, attachments: attachments)
        lock.withLock { if stage == .delivered { $0.delivered = made } else { $0.turned = made } }
        return made
    }
}
