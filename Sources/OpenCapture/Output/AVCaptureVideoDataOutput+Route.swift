import Foundation

/// A video data output takes each frame converted to its pixel format and size, turned and
/// mirrored as its connection says, into its own pools; the delegate gets it on its queue.
extension AVCaptureVideoDataOutput: RouteConsumer {
    func frameForm(for connection: AVCaptureConnection) -> FrameForm? {
        .converted(FrameConversion(format: deliveredPixelFormat, requestedSize: requestedSize, pools: pools))
    }

    func take(_ frame: RoutedFrame) {
        guard let description = frame.formatDescription else { return }
        enqueue(frame.buffer, format: description, metadata: frame.metadata)
    }

    func framesWereDropped(count: Int, reason: DropReason, metadata: FrameMetadata) {
        enqueueDrops(count: count, reason: reason, metadata: metadata)
    }

    func waitUntilReadyForFrame(unless giveUp: () -> Bool) {
        _ = delivery?.waitUntilEmpty(unless: giveUp)
    }

    func frameRouteDidEnd(by router: FrameRouter, routerStopped: Bool) {
        // Lets go of a capture thread waiting for the delegate (virtual time).
        if routerStopped { delivery?.wake() }
    }

    func openInbox() { openForRun() }

    func closeInbox() -> (() -> Void)? {
        guard let delivery, let call = delivery.close() else { return nil }
        return { delivery.waitForDelegateCall(call) }
    }
}
