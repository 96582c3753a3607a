import Foundation

/// Receives what an `AVCaptureMetadataOutput` detects, on the queue given with the delegate.
///
/// The method is optional, as on iOS.
public protocol AVCaptureMetadataOutputObjectsDelegate: NSObjectProtocol {
    /// Objects found in a frame (of the types in `metadataObjectTypes`), in metadata-output
    /// coordinates. Called for each frame the detector reads that holds objects, and once
    /// with an empty array when they have all gone.
    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection)
}

extension AVCaptureMetadataOutputObjectsDelegate {
    public func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {}
}
