import Dispatch
import Foundation
import Synchronization

@testable import CaptureCore
@testable import SimulatedCamera

/// Collects what `extract` takes from each frame of a simulated camera in virtual time
/// until `limit` frames; `onFrame` runs on the capture thread, so what it changes applies
/// from the next frame.
final class FrameRecordingSink<Frame: Sendable>: FrameSink, @unchecked Sendable {
    let limit: Int
    let extract: @Sendable (CVPixelBuffer, FrameMetadata) -> Frame
    let onFrame: @Sendable (FrameMetadata) -> Void
    private let frames_ = Mutex<[Frame]>([])
    private let finished = DispatchSemaphore(value: 0)

    init(
        limit: Int, extract: @escaping @Sendable (CVPixelBuffer, FrameMetadata) -> Frame,
        onFrame: @escaping @Sendable (FrameMetadata) -> Void
    ) {
        self.limit = limit
        self.extract = extract
        self.onFrame = onFrame
    }

    func backendDidCapture(_ buffer: CVPixelBuffer, metadata: FrameMetadata) {
        let frame = extract(buffer, metadata)
        let count = frames_.withLock {
            $0.append(frame)
            return $0.count
        }
        onFrame(metadata)
        if count == limit { finished.signal() }
    }

    func backendDidDrop(count: Int, reason: DropReason, metadata: FrameMetadata) {}
    func backendDidFail(_ error: BackendError) {}
    func waitUntilReadyForNextFrame() -> Bool { frames_.withLock { $0.count < limit } }

    func wait() -> Bool { finished.wait(timeout: .now() + 120) == .success }
    var frames: [Frame] { frames_.withLock { $0 } }
}

/// Collects only frame metadata.
typealias MetadataSink = FrameRecordingSink<FrameMetadata>

extension FrameRecordingSink where Frame == FrameMetadata {
    convenience init(limit: Int, onFrame: @escaping @Sendable (FrameMetadata) -> Void) {
        self.init(limit: limit, extract: { _, metadata in metadata }, onFrame: onFrame)
    }
}
