import CaptureCore
import Foundation
import Synchronization
import Testing

/// A backend's frame sink for tests: records what `extract` takes from each frame, and each
/// drop, into a `FrameLog`.
///
/// In virtual time the camera renders a frame only when its sink is ready, so a sink with a
/// `limit` makes the stream stop by itself after that many events (frames and drops), and
/// `pause` (a short sleep before each frame) keeps an endless virtual-time stream from
/// taking every core from the threads a test runs beside it. `onFrame` runs on the capture
/// thread after a frame is recorded, so what it changes applies from the next frame.
package final class RecordingSink<Frame: Sendable>: FrameSink, @unchecked Sendable {
    /// One `backendDidDrop` call.
    package struct Drop: Sendable {
        package var count: Int
        package var reason: DropReason
        package var metadata: FrameMetadata
    }

    package let log: FrameLog<Frame, Drop>
    private let extract: @Sendable (CVPixelBuffer, FrameMetadata) -> Frame
    private let onFrame: @Sendable (FrameMetadata) -> Void
    private let pause: Duration?
    private let failures_ = Mutex<[BackendError]>([])

    /// - Parameters:
    ///   - limit: events (frames and drops) to record; in virtual time the stream then stops.
    ///   - keptPixels: how many of the newest frames keep their pixel buffer.
    ///   - holdsBuffers: keep every frame's buffer (starving the camera's pool).
    ///   - pause: slept before each virtual-time frame.
    package init(
        limit: Int? = nil, keepingPixelsOf keptPixels: Int = 1, holdsBuffers: Bool = false, pause: Duration? = nil,
        extract: @escaping @Sendable (CVPixelBuffer, FrameMetadata) -> Frame,
        onFrame: @escaping @Sendable (FrameMetadata) -> Void = { _ in }
    ) {
        log = FrameLog(limit: limit, keepingPixelsOf: keptPixels, holdsBuffers: holdsBuffers)
        self.extract = extract
        self.onFrame = onFrame
        self.pause = pause
    }

    package func backendDidCapture(_ buffer: CVPixelBuffer, metadata: FrameMetadata) {
        if log.record({ extract(buffer, metadata) }, pixels: buffer, holding: buffer) { onFrame(metadata) }
    }

    package func backendDidDrop(count: Int, reason: DropReason, metadata: FrameMetadata) {
        log.recordDrop(Drop(count: count, reason: reason, metadata: metadata))
    }

    package func backendDidFail(_ error: BackendError) {
        failures_.withLock { $0.append(error) }
    }

    package func waitUntilReadyForNextFrame() -> Bool {
        if let pause { Thread.sleep(forTimeInterval: pause.seconds) }
        return !log.isFull
    }

    /// Waits until the limit of events arrived (fails the test after `timeout`).
    package func wait(within timeout: Duration = .seconds(120), sourceLocation: SourceLocation = #_sourceLocation) throws {
        try log.waitUntilFull(within: timeout, sourceLocation: sourceLocation)
    }

    /// Waits until the limit of events arrived, then stops `backend`, also when the wait fails.
    package func wait(
        thenStop backend: any CaptureBackend, within timeout: Duration = .seconds(120),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        defer { backend.stop() }
        try wait(within: timeout, sourceLocation: sourceLocation)
    }

    /// Waits for `count` frames and returns exactly the first `count` (see `FrameLog`).
    @discardableResult
    package func waitForFrames(
        _ count: Int, within timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Frame] {
        try log.waitForFrames(count, within: timeout, sourceLocation: sourceLocation)
    }

    /// Waits for `count` more frames than have arrived; returns every frame by then.
    @discardableResult
    package func waitForMoreFrames(
        _ count: Int, within timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Frame] {
        try log.waitForMoreFrames(count, within: timeout, sourceLocation: sourceLocation)
    }

    /// The frames recorded so far.
    package var frames: [Frame] { log.frames }
    /// The drops recorded so far.
    package var drops: [Drop] { log.drops }
    /// The failures reported so far.
    package var failures: [BackendError] { failures_.withLock { $0 } }
    /// Every call the camera made with a frame, a drop or a failure.
    package var calls: Int { log.frameCount + log.dropCount + failures.count }
    /// The newest frame's pixel buffer (while `keptPixels` > 0).
    package var lastBuffer: CVPixelBuffer? { log.newestPixels?.buffer }
}

/// A sink that records frame metadata only.
package typealias MetadataSink = RecordingSink<FrameMetadata>

extension RecordingSink where Frame == FrameMetadata {
    package convenience init(
        limit: Int? = nil, keepingPixelsOf keptPixels: Int = 1, holdsBuffers: Bool = false, pause: Duration? = nil,
        onFrame: @escaping @Sendable (FrameMetadata) -> Void = { _ in }
    ) {
        self.init(
            limit: limit, keepingPixelsOf: keptPixels, holdsBuffers: holdsBuffers, pause: pause,
            extract: { _, metadata in metadata }, onFrame: onFrame)
    }
}
