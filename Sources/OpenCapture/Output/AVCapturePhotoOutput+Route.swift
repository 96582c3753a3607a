import Foundation

/// A photo output keeps the camera's frames, and the microphone's sound, for Live Photo
/// movies while its ring is active (`LivePhotoRecorder`); its readiness follows the session.
extension AVCapturePhotoOutput: RouteConsumer {
    var soleKindInSession: String? { "still" }

    func frameForm(for connection: AVCaptureConnection) -> FrameForm? { .asCaptured }

    var acceptsFrames: Bool { livePhotos.isActive }

    func take(_ frame: RoutedFrame) { livePhotos.offer(frame.buffer, metadata: frame.metadata, mirrored: frame.mirrored) }

    func take(audio sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection, done: (@Sendable () -> Void)?) {
        livePhotos.offerAudio(sampleBuffer)
        done?()
    }

    var audioPace: AudioPace { livePhotos.isActive ? .own : .none }

    /// A Live Photo ring takes sound no faster than its camera's frames.
    func waitForAudioTurn(unless giveUp: () -> Bool) {
        if livePhotos.isActive { livePhotos.waitForAudioTurn(unless: giveUp) }
    }

    func audioRouteDidPublish(by router: AudioRouter) { livePhotos.setAudioFeed(true) }

    func audioRouteDidEnd(by router: AudioRouter) { livePhotos.setAudioFeed(false) }

    /// The Live Photo ring turns on as the run's inboxes open, before any device streams, so
    /// the camera's first frames and the microphone's first buffers go into it together.
    /// (Turned on only once `startRunning()` let go of its lock, the camera could run seconds
    /// ahead in virtual time while the microphone waited for a consumer, and a Live Photo
    /// taken then was complete before any sound came: a movie without its audio track.)
    func openInbox() { updateLivePhotoRing() }

    func sessionDidStart(releasing lock: ConfigurationLock) { lock.afterUnlock { [self] in sessionStateChanged() } }

    func sessionDidStop(releasing lock: ConfigurationLock) { lock.afterUnlock { [self] in sessionStateChanged() } }

    /// Preparations asked for (`setPreparedPhotoSettingsArray`) run once the session runs
    /// with no transaction open.
    func sessionDidSettle() { runPendingPreparation() }

    func watchKeysFollowingSession() -> KeyValueChange? { KeyValueChange.watch(self, keys: ["captureReadiness", "isFlashScene"]) }
}
