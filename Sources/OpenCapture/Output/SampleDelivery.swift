import Foundation
import Synchronization

/// The inbox between a device's capture thread and a delegate's queue.
///
/// The capture thread puts frames and drop records in; a dispatch source on the delegate's
/// queue takes them out in order. With `alwaysDiscardsLateVideoFrames` at most one frame
/// waits: a newer frame replaces it and the replaced one is reported as `FrameWasLate`.
/// Nothing here allocates per frame: the ring, the sample buffers and the dispatch source
/// are made once and reused.
///
/// Threads: `enqueue…` on the capture thread; the delegate is called on its queue, never
/// with a lock of ours held; `close()` never blocks, and `waitForDelegateCall(after:)`, which
/// waits for user code, must be called with no lock held (the session defers it until its
/// configuration lock is released).
final class SampleDelivery: @unchecked Sendable {
    enum Item {
        case frame(CMSampleBuffer)
        case drop(CMSampleBuffer)
    }

    private struct State {
        var ring: [Item?]
        var head = 0
        var count = 0
        var pendingFrames = 0
        var closed = true
        var deliveringThread: pthread_t?
        /// Delegate calls begun and ended, so a closer waits for the call in progress only.
        var callsBegun = 0
        var callsEnded = 0
        var maximumPendingFrames = 1
        var peakPendingFrames = 0
        var recycled: [CMSampleBuffer] = []
    }

    private let state: Mutex<State>
    private let drained = NSCondition()
    private var source: DispatchSourceUserDataAdd?
    private let deliver: (Item) -> Void

    static let ringCapacity = 64

    /// `deliver` runs on `queue` for each item, in order.
    init(queue: DispatchQueue, deliver: @escaping (Item) -> Void) {
        var ring: [Item?] = []
        ring.reserveCapacity(SampleDelivery.ringCapacity)
        for _ in 0..<SampleDelivery.ringCapacity { ring.append(nil) }
        var recycled: [CMSampleBuffer] = []
        recycled.reserveCapacity(32)
        state = Mutex(State(ring: ring, recycled: recycled))
        self.deliver = deliver
        let source = DispatchSource.makeUserDataAddSource(queue: queue)
        source.setEventHandler { [weak self] in self?.drain() }
        source.activate()
        self.source = source
    }

    deinit { source?.cancel() }

    /// Opens the inbox for a run; `maximumPendingFrames` is 1 when late frames are discarded.
    func open(maximumPendingFrames: Int) {
        state.withLock {
            $0.closed = false
            $0.maximumPendingFrames = max(1, maximumPendingFrames)
            $0.peakPendingFrames = 0
        }
    }

    /// What a closer waits for: the delegate call in progress when the inbox closed.
    struct CallInProgress {
        fileprivate let call: Int
        fileprivate let thread: pthread_t
    }

    /// Closes the inbox without blocking: pending items are discarded and a capture thread
    /// waiting for room is released. Returns the delegate call in progress, if any, for
    /// `waitForDelegateCall(_:)`.
    @discardableResult
    func close() -> CallInProgress? {
        let inProgress = state.withLock { state -> CallInProgress? in
            state.closed = true
            while state.count > 0 { _ = Self.pop(&state) }
            state.pendingFrames = 0
            guard let thread = state.deliveringThread else { return nil }
            return CallInProgress(call: state.callsBegun, thread: thread)
        }
        wake()
        return inProgress
    }

    /// Blocks until the delegate call `call` has returned; at once when called from inside
    /// that call (a delegate stopping its own session). Call with no lock held: it waits for
    /// user code.
    func waitForDelegateCall(_ call: CallInProgress?) {
        guard let call, pthread_equal(call.thread, pthread_self()) == 0 else { return }
        drained.lock()
        while state.withLock({ $0.callsEnded < call.call }) { drained.wait() }
        drained.unlock()
    }

    /// Closes the inbox and waits for a delegate call in progress (no lock may be held).
    func closeAndWait() { waitForDelegateCall(close()) }

    /// Wakes a capture thread blocked in `waitUntilEmpty(unless:)` to look at its condition again.
    func wake() {
        drained.lock()
        drained.broadcast()
        drained.unlock()
    }

    /// The most frames that waited at once during this run (for tests).
    var peakPendingFrames: Int { state.withLock { $0.peakPendingFrames } }
    /// Frames waiting now.
    var pendingFrames: Int { state.withLock { $0.pendingFrames } }

    /// A sample buffer object to fill, recycled when nobody holds it any more.
    func makeSampleBuffer() -> CMSampleBuffer {
        let reused = state.withLock { state -> CMSampleBuffer? in
            for index in state.recycled.indices where isKnownUniquelyReferenced(&state.recycled[index]) {
                return state.recycled[index]
            }
            return nil
        }
        if let reused { return reused }
        let fresh = CMSampleBuffer(imageBuffer: nil, formatDescription: nil, presentationTimeStamp: .invalid, duration: .invalid)
        state.withLock { if $0.recycled.count < 32 { $0.recycled.append(fresh) } }
        return fresh
    }

    /// Queues a frame. When a frame already waits and no more may, the waiting one is
    /// replaced by `lateRecord`, filled as its FrameWasLate drop record.
    func enqueueFrame(_ sample: CMSampleBuffer, lateRecord record: CMSampleBuffer) {
        let queued = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            if state.pendingFrames >= state.maximumPendingFrames {
                // Replace the oldest waiting frame with a record of its loss.
                var index = state.head
                for _ in 0..<state.count {
                    if case .frame(let old)? = state.ring[index] {
                        record.reuse(
                            imageBuffer: nil, formatDescription: old.formatDescription,
                            presentationTimeStamp: old.presentationTimeStamp, duration: old.duration, metadata: old.metadata)
                        record.setAttachment(kCMSampleBufferAttachmentKey_DroppedFrameReason, kCMSampleBufferDroppedFrameReason_FrameWasLate)
                        old.releaseImage()
                        state.ring[index] = .drop(record)
                        state.pendingFrames -= 1
                        break
                    }
                    index = (index + 1) % SampleDelivery.ringCapacity
                }
            }
            Self.push(.frame(sample), &state)
            state.pendingFrames += 1
            state.peakPendingFrames = max(state.peakPendingFrames, state.pendingFrames)
            return true
        }
        if queued { source?.add(data: 1) }
    }

    /// Queues a drop record.
    func enqueueDrop(_ record: CMSampleBuffer) {
        let queued = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            Self.push(.drop(record), &state)
            return true
        }
        if queued { source?.add(data: 1) }
    }

    /// Blocks until no frame waits (virtual time), the inbox closes or `giveUp` holds (checked
    /// again on each `wake()`). Returns false if it closed or gave up.
    func waitUntilEmpty(unless giveUp: () -> Bool = { false }) -> Bool {
        drained.lock()
        defer { drained.unlock() }
        while true {
            let (closed, pending) = state.withLock { ($0.closed, $0.pendingFrames) }
            if closed || giveUp() { return false }
            if pending == 0 { return true }
            drained.wait()
        }
    }

    private static func push(_ item: Item, _ state: inout State) {
        if state.count == ringCapacity {
            // A stalled delegate: forget the oldest item rather than grow.
            if case .frame? = pop(&state) { state.pendingFrames -= 1 }
        }
        state.ring[(state.head + state.count) % ringCapacity] = item
        state.count += 1
    }

    private static func pop(_ state: inout State) -> Item? {
        guard state.count > 0 else { return nil }
        let item = state.ring[state.head]
        state.ring[state.head] = nil
        state.head = (state.head + 1) % ringCapacity
        state.count -= 1
        return item
    }

    private func drain() {
        let me = pthread_self()
        while true {
            var item = state.withLock { state -> Item? in
                guard !state.closed, let item = Self.pop(&state) else { return nil }
                if case .frame = item { state.pendingFrames -= 1 }
                state.deliveringThread = me
                state.callsBegun += 1
                return item
            }
            guard item != nil else { break }
            drained.lock()
            drained.broadcast()
            drained.unlock()
            deliver(item!)
            item = nil
            releaseIdleImages()
            drained.lock()
            state.withLock {
                $0.deliveringThread = nil
                $0.callsEnded += 1
            }
            drained.broadcast()
            drained.unlock()
        }
    }

    /// Sample buffers nobody holds any more let go of their pixels, so the pixel buffer pool
    /// can reuse them before the sample buffer object itself is reused.
    private func releaseIdleImages() {
        state.withLock { state in
            for index in state.recycled.indices where isKnownUniquelyReferenced(&state.recycled[index]) {
                state.recycled[index].releaseImage()
            }
        }
    }
}
