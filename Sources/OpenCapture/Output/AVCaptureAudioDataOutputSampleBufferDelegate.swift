import Foundation

/// Receives the audio of an `AVCaptureAudioDataOutput` on the queue given with the delegate.
///
/// The method is optional, as on iOS.
public protocol AVCaptureAudioDataOutputSampleBufferDelegate: NSObjectProtocol {
    /// A new buffer of audio: linear PCM in the microphone's format, its presentation time
    /// on the session's synchronization clock.
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
}

extension AVCaptureAudioDataOutputSampleBufferDelegate {
    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
}
