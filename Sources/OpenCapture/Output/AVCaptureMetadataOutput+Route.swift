import Foundation

/// A metadata output reads the camera's frames on its own queue (`MetadataScanner`), one
/// at a time: a frame that comes while the detector is busy is skipped.
extension AVCaptureMetadataOutput: RouteConsumer {
    var soleKindInSession: String? { "metadata" }

    func frameForm(for connection: AVCaptureConnection) -> FrameForm? { .asCaptured }

    func take(_ frame: RoutedFrame) { scanner.offer(frame.buffer, metadata: frame.metadata, connection: frame.connection, output: self) }

    func waitUntilReadyForFrame(unless giveUp: () -> Bool) { scanner.waitUntilIdle(unless: giveUp) }

    func frameRouteDidPublish(by router: FrameRouter) { scanner.begin() }

    func frameRouteDidEnd(by router: FrameRouter, routerStopped: Bool) {
        if routerStopped { scanner.stop() }
    }
}
