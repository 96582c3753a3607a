import Foundation

/// An audio data output takes each microphone buffer to its delegate's queue, one buffer in
/// flight at a time in virtual time.
extension AVCaptureAudioDataOutput: RouteConsumer {
    var countsAudioInFlight: Bool { true }

    func take(audio sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection, done: (@Sendable () -> Void)?) {
        enqueue(sampleBuffer, from: connection) { done?() }
    }

    var audioPace: AudioPace { isDelivering ? .oneInFlight : .none }

    func openInbox() { openForRun() }

    func closeInbox() -> (() -> Void)? {
        guard let calls = close() else { return nil }
        return { [self] in waitForDelegateCalls(calls) }
    }
}
