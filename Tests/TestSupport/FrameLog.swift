import CaptureCore
import Foundation
import Testing

/// What a test collects from a stream: one entry per frame (whatever the test extracts from
/// it), one per drop, the pixels of the newest few frames, and buffers held on purpose.
///
/// This is the one collector behind every test sink: `RecordingSink` (a backend's
/// `FrameSink`) and the video data output delegates of the API tests record into it. Its
/// waits block on a condition variable and return the moment what they wait for is there;
/// they return exactly what was asked or fail the test, naming what arrived instead.
///
/// A frame's pixels are kept only for the newest `keptPixels` frames: the buffers come from
/// small pools, and a collector that kept them all would run its pool dry and stop the
/// stream. With a `limit`, the log records that many events (frames and drops) and lets
/// later frames go at once, so the pixels of the last recorded frame stay put while the
/// stream goes on.
///
/// Recording is meant for one thread at a time (a capture thread or a delegate queue);
/// reading and waiting work from any thread.
package final class FrameLog<Frame: Sendable, Drop: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var frames_: [Frame] = []
    private var drops_: [Drop] = []
    private var pixels_: [(index: Int, buffer: CVPixelBuffer)] = []
    private var held: [AnyObject] = []
    private var limit_: Int?
    private var keptPixels_: Int
    private var holdsBuffers_: Bool

    /// - Parameters:
    ///   - limit: events (frames and drops) recorded at most; nil for no limit.
    ///   - keptPixels: how many of the newest frames keep their pixel buffer.
    ///   - holdsBuffers: keep every recorded frame's buffer (to starve the pool on purpose).
    package init(limit: Int? = nil, keepingPixelsOf keptPixels: Int = 0, holdsBuffers: Bool = false) {
        limit_ = limit
        keptPixels_ = keptPixels
        holdsBuffers_ = holdsBuffers
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// Events (frames and drops) recorded at most; nil for no limit.
    package var limit: Int? {
        get { locked { limit_ } }
        set { locked { limit_ = newValue } }
    }

    /// How many of the newest recorded frames keep their pixel buffer.
    package var keptPixels: Int {
        get { locked { keptPixels_ } }
        set { locked { keptPixels_ = newValue } }
    }

    /// Whether every recorded frame's buffer is held until `releaseHeldBuffers()`.
    package var holdsBuffers: Bool {
        get { locked { holdsBuffers_ } }
        set { locked { holdsBuffers_ = newValue } }
    }

    private var isFullLocked: Bool { limit_.map { frames_.count + drops_.count >= $0 } ?? false }

    /// Whether the limit is reached: nothing more is recorded.
    package var isFull: Bool { locked { isFullLocked } }

    /// Records a frame unless the log is full. `extract` runs only for a recorded frame;
    /// `pixels` is kept while the frame is among the newest `keptPixels`, and `holding`
    /// (the frame's buffer, or the sample buffer carrying it) while buffers are held.
    /// Returns whether the frame was recorded.
    @discardableResult
    package func record(_ extract: () -> Frame, pixels: CVPixelBuffer? = nil, holding: AnyObject? = nil) -> Bool {
        if isFull { return false }
        let frame = extract()
        locked {
            if let pixels, keptPixels_ > 0 {
                pixels_.append((frames_.count, pixels))
                if pixels_.count > keptPixels_ { pixels_.removeFirst(pixels_.count - keptPixels_) }
            }
            if holdsBuffers_, let holding { held.append(holding) }
            frames_.append(frame)
            condition.broadcast()
        }
        return true
    }

    /// Records a drop unless the log is full; returns whether it was recorded.
    @discardableResult
    package func recordDrop(_ drop: Drop) -> Bool {
        locked {
            if isFullLocked { return false }
            drops_.append(drop)
            condition.broadcast()
            return true
        }
    }

    /// The frames recorded so far, oldest first.
    package var frames: [Frame] { locked { frames_ } }
    /// The drops recorded so far, oldest first.
    package var drops: [Drop] { locked { drops_ } }
    /// The newest recorded frame.
    package var lastFrame: Frame? { locked { frames_.last } }
    /// How many frames were recorded.
    package var frameCount: Int { locked { frames_.count } }
    /// How many drops were recorded.
    package var dropCount: Int { locked { drops_.count } }

    /// The pixel buffer of recorded frame `index` (0 for the first), if it is still kept.
    package func pixels(ofFrame index: Int) -> CVPixelBuffer? {
        locked { pixels_.last { $0.index == index }?.buffer }
    }

    /// The newest kept pixel buffer and the index of its frame.
    package var newestPixels: (index: Int, buffer: CVPixelBuffer)? { locked { pixels_.last } }

    /// Lets go of the held buffers (they return to their pool).
    package func releaseHeldBuffers() { locked { held.removeAll() } }

    /// Forgets everything recorded (the settings stay).
    package func reset() {
        locked {
            frames_.removeAll()
            drops_.removeAll()
            pixels_.removeAll()
            held.removeAll()
        }
    }

    /// Waits for `count` frames and returns exactly the first `count`. Fails the test
    /// (and throws) when they do not come within `timeout`, or cannot because the log is full.
    @discardableResult
    package func waitForFrames(
        _ count: Int, within timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Frame] {
        try wait(for: "\(count) frames", within: timeout, sourceLocation: sourceLocation) { frames_.count >= count }
        return locked { Array(frames_.prefix(count)) }
    }

    /// Waits for `count` more frames than were recorded when it was called, and returns
    /// every frame recorded by then (`count` more than before, exactly).
    @discardableResult
    package func waitForMoreFrames(
        _ count: Int, within timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Frame] {
        try waitForFrames(frameCount + count, within: timeout, sourceLocation: sourceLocation)
    }

    /// Waits for `count` drops and returns exactly the first `count`; fails as `waitForFrames`.
    @discardableResult
    package func waitForDrops(
        _ count: Int, within timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Drop] {
        try wait(for: "\(count) drops", within: timeout, sourceLocation: sourceLocation) { drops_.count >= count }
        return locked { Array(drops_.prefix(count)) }
    }

    /// Waits until the log is full (its limit of events recorded).
    package func waitUntilFull(within timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) throws {
        let limit = try #require(self.limit, "a log without a limit is never full", sourceLocation: sourceLocation)
        try wait(for: "\(limit) events", within: timeout, sourceLocation: sourceLocation) { isFullLocked }
    }

    /// Blocks until `satisfied` holds (checked with the lock held), the deadline passes or
    /// the log is full without it; fails the test in the last two cases.
    private func wait(
        for what: String, within timeout: Duration, sourceLocation: SourceLocation, _ satisfied: () -> Bool
    ) throws {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        let outcome: String? = locked {
            while !satisfied() {
                if isFullLocked { return "the log is full at its limit of \(limit_ ?? 0) events" }
                if !condition.wait(until: deadline) && !satisfied() { return "not within \(timeout)" }
            }
            return nil
        }
        let arrived = outcome == nil
        let (frames, drops) = locked { (frames_.count, drops_.count) }
        try #require(
            arrived, "waited for \(what): \(outcome ?? ""); \(frames) frames and \(drops) drops arrived",
            sourceLocation: sourceLocation)
    }
}
