import Dispatch
import Foundation
import Synchronization

@testable import CaptureCore
@testable import SimulatedCamera

/// Collects frame metadata from a simulated camera in virtual time until `limit` frames;
/// `onFrame` runs on the capture thread, so what it changes applies from the next frame.
final class MetadataSink: FrameSink, @unchecked Sendable {
    let limit: Int
    let onFrame: @Sendable (FrameMetadata) -> Void
    private let frames_ = Mutex<[FrameMetadata]>([])
    private let finished = DispatchSemaphore(value: 0)

    init(limit: Int, onFrame: @escaping @Sendable (FrameMetadata) -> Void) {
        self.limit = limit
        self.onFrame = onFrame
    }

    func backendDidCapture(_ buffer: CVPixelBuffer, metadata: FrameMetadata) {
        let count = frames_.withLock {
            $0.append(metadata)
            return $0.count
        }
        onFrame(metadata)
        if count == limit { finished.signal() }
    }

    func backendDidDrop(count: Int, reason: DropReason, metadata: FrameMetadata) {}
    func backendDidFail(_ error: BackendError) {}
    func waitUntilReadyForNextFrame() -> Bool { frames_.withLock { $0.count < limit } }

    func wait() -> Bool { finished.wait(timeout: .now() + 120) == .success }
    var frames: [FrameMetadata] { frames_.withLock { $0 } }
}

