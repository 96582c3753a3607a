import Foundation

// The device's link to the sessions that use it, and the frame metadata they feed it.
extension AVCaptureDevice {
    /// The sessions that have this device as an input (a device may be in several; only
    /// one at a time can stream from it).
    package var sessions: [AVCaptureSession] { core.sessionLinks.sessions }

    package func attach(to session: AVCaptureSession) {
        core.sessionLinks.withLock { $0.attach(session) }
    }

    package func detach(from session: AVCaptureSession) {
        core.sessionLinks.withLock { $0.detach(session) }
    }

    /// Claims the device for streaming; false while another session holds the claim.
    ///
    /// A claim lasts until `releaseStreaming`, which a session calls only after it has
    /// stopped the device's stream, not merely until the owner stops running: a session's
    /// `isRunning` turns false before it stops its streams, and a claim taken in between
    /// started a new stream that the stopping session's `backend.stop()` then ended,
    /// leaving the new session running without frames (a Live Photo movie waited forever
    /// for its last frames). A session that went away releases its claim with it (weak).
    package func claimStreaming(for session: AVCaptureSession) -> Bool {
        core.sessionLinks.withLock { $0.claim(for: session) }
    }

    package func releaseStreaming(by session: AVCaptureSession) {
        core.sessionLinks.withLock { $0.release(by: session) }
    }

    /// Called by the session's frame router with each frame's metadata.
    package func record(_ metadata: FrameMetadata) {
        let observed = watchFrameChanges()  // nil after one atomic load when nobody observes
        let scenes = core.sceneMonitors.watch()  // photo outputs' isFlashScene; [] likewise
        core.zoom.withLock { $0.newestFrame = metadata }
        noteSystemPressure(of: metadata)
        noteSubjectArea(of: metadata)
        core.controls.frameArrived(metadata)
        observed?.didChange(on: core.keyValueObservers.changeQueue)
        for scene in scenes { scene.didChange(on: core.keyValueObservers.changeQueue) }
    }

    /// The metadata of the newest frame the device produced.
    package var lastFrameMetadata: FrameMetadata { core.zoom.newestFrame }
}
