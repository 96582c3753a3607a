import Foundation

/// Receives the frames of an `AVCaptureVideoDataOutput` on the queue given with the delegate.
///
/// Both methods are optional, as on iOS: implement the ones you need in your class
/// (usually an `NSObject` subclass).
public protocol AVCaptureVideoDataOutputSampleBufferDelegate: NSObjectProtocol {
    /// A new frame. Hold the sample buffer only as long as you need it: buffers come from a
    /// small pool, and holding them starves it (later frames are dropped with `OutOfBuffers`).
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
    /// A frame was dropped. The sample buffer has no image; its
    /// `kCMSampleBufferAttachmentKey_DroppedFrameReason` attachment says why.
    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
}

extension AVCaptureVideoDataOutputSampleBufferDelegate {
    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
    public func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
}
