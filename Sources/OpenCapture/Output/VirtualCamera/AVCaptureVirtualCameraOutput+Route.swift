import Foundation

/// A virtual camera takes each frame converted to NV12 (at `videoDimensions` when set),
/// turned and mirrored as its connection says, into its own pools, and copies it into the
/// node without waiting: it never holds a camera back.
extension AVCaptureVirtualCameraOutput: RouteConsumer {
    var wideColorPreference: WideColorPreference { .needsStandard }

    func frameForm(for connection: AVCaptureConnection) -> FrameForm? {
        let size = videoDimensions.map { (width: Int($0.width), height: Int($0.height)) }
        return .converted(FrameConversion(format: .yuv420BiPlanarVideoRange, requestedSize: size, pools: pools))
    }

    func take(_ frame: RoutedFrame) {
        publish(frame.buffer, metadata: frame.metadata)
    }

    /// The run ended: the node goes, so apps see the camera go rather than freeze.
    func sessionDidStop(releasing lock: ConfigurationLock) {
        sessionStopped()
    }
}
