import Foundation

/// Hears how an `AVCaptureStreamOutput`'s stream fares (Linux addition). Every method is
/// called on the queue given to `setDelegate(_:queue:)`, never on a capture or network
/// thread, and the output holds no lock while calling.
public protocol AVCaptureStreamOutputDelegate: NSObjectProtocol {
    /// The stream moved to `state`. `error` says why a connection failed or was lost
    /// (`.reconnecting`, `.failed`), nil otherwise.
    func streamOutput(_ output: AVCaptureStreamOutput, didChange state: AVCaptureStreamOutput.State, error: AVCaptureStreamOutput.StreamError?)
    /// Queued media were dropped because the connection could not keep up: `frames` video
    /// frames and `audioBuffers` audio sample buffers since the last call (reports are
    /// merged while the delegate's queue is busy). The totals are the output's
    /// `droppedFrameCount` and `droppedAudioBufferCount`.
    func streamOutput(_ output: AVCaptureStreamOutput, didDropFrames frames: Int, audioBuffers: Int)
}

extension AVCaptureStreamOutputDelegate {
    public func streamOutput(_ output: AVCaptureStreamOutput, didChange state: AVCaptureStreamOutput.State, error: AVCaptureStreamOutput.StreamError?) {}
    public func streamOutput(_ output: AVCaptureStreamOutput, didDropFrames frames: Int, audioBuffers: Int) {}
}
