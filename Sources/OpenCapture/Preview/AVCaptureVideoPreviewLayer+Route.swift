import Foundation

/// A preview layer takes the camera's buffers as they are and turns and scales them on its
/// own queue.
extension AVCaptureVideoPreviewLayer: RouteConsumer {
    func frameForm(for connection: AVCaptureConnection) -> FrameForm? { .asCaptured }

    func take(_ frame: RoutedFrame) { show(frame.buffer, rotation: frame.rotation, mirrored: frame.mirrored) }
}
