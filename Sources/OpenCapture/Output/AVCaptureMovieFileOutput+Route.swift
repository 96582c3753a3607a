import Foundation

/// A movie file output takes the camera's buffers as they are (rotation goes in the track
/// matrix, mirroring into the pixels unless the device did it) and the microphone's, and in
/// virtual time keeps the two in lockstep: every frame and buffer moves its clocks, and its
/// recorder paces both streams.
extension AVCaptureMovieFileOutput: RouteConsumer {
    var soleKindInSession: String? { "movie" }

    func frameForm(for connection: AVCaptureConnection) -> FrameForm? { .asCaptured }

    func frameClockDidTick(_ metadata: FrameMetadata) { recorder.noteVideoTime(metadata.presentationTime) }

    func take(_ frame: RoutedFrame) { consume(frame.buffer, metadata: frame.metadata, mirrored: frame.mirrored) }

    /// A frame the source could not deliver is missing from a recording too.
    func framesWereDropped(count: Int, reason: DropReason, metadata: FrameMetadata) { recorder.noteSourceDrops(count) }

    func waitUntilReadyForFrame(unless giveUp: () -> Bool) { recorder.waitUntilDrained(unless: giveUp) }

    func frameRouteDidPublish(by router: FrameRouter) { recorder.setFeed(router, audio: false, attached: true) }

    func frameRouteDidEnd(by router: FrameRouter, routerStopped: Bool) { recorder.setFeed(router, audio: false, attached: false) }

    func audioClockDidTick(_ sampleBuffer: CMSampleBuffer) { recorder.noteAudioTime(sampleBuffer) }

    func take(audio sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection, done: (@Sendable () -> Void)?) {
        consumeAudio(sampleBuffer)
        done?()
    }

    var audioPace: AudioPace { .own }

    func waitForAudioTurn(unless giveUp: () -> Bool) { recorder.waitForAudioTurn(unless: giveUp) }

    func audioRouteDidPublish(by router: AudioRouter) { recorder.setFeed(router, audio: true, attached: true) }

    func audioRouteDidEnd(by router: AudioRouter) { recorder.setFeed(router, audio: true, attached: false) }

    /// App metadata becomes a timed metadata track.
    func take(timedMetadata sample: Data, time: CMTime, source: ObjectIdentifier) {
        recorder.consumeMetadata(sample, time: time, source: source)
    }

    func sessionDidStop(releasing lock: ConfigurationLock) { sessionDidStop() }
}
