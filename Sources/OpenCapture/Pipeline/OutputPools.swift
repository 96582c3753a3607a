import CaptureCore

/// The pools a video data output's converted frames come from (turned, mirrored, another
/// pixel format, scaled), kept by the output across runs.
///
/// Why: they used to live in each run's `FrameRouter`, so every restart made new buffers
/// and freed the old ones. Now a restart at the same size finds its buffers here; a new
/// run lets go of the buffers an app still holds from the last one, so it starts with the
/// whole budget of `FrameRouter.outputPoolSize`, as a new pool would.
///
/// Thread safety: used by the capture thread of the one device routed to the output,
/// and by the session (`beginRun`) while no stream feeds it.
final class OutputPools: @unchecked Sendable {
    /// Frames at the size delivered.
    var delivered: CVPixelBufferPool?
    /// Full-size turned frames waiting to be scaled, when the output asks for a smaller size.
    var turned: CVPixelBufferPool?

    /// A new run starts using the pools.
    func beginRun() {
        delivered?.forgetHeldBuffers()
        turned?.forgetHeldBuffers()
    }
}
