import Foundation

/// A stream output takes the camera's buffers as they are, turned and mirrored on its own
/// thread, and the microphone's, into bounded queues that drop the oldest: it never holds
/// a device back.
extension AVCaptureStreamOutput: RouteConsumer {
    func frameForm(for connection: AVCaptureConnection) -> FrameForm? { .asCaptured }

    func take(_ frame: RoutedFrame) {
        consume(frame.buffer, metadata: frame.metadata, rotation: frame.rotation, mirrored: frame.mirrored)
    }

    func take(audio sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection, done: (@Sendable () -> Void)?) {
        consume(audio: sampleBuffer)
        done?()
    }

    var audioPace: AudioPace { .own }
}
