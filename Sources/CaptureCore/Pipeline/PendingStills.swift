import Synchronization

/// Still requests waiting for the next frame boundary of one stream (simulated and V4L2 cameras).
///
/// Any thread adds; the capture thread takes them at each frame boundary and, when the
/// stream ends, closes the queue and fails what is left, so every request's completion runs
/// exactly once whichever way the race between a request and `stop` goes.
package final class PendingStills: Sendable {
    /// A request and the completion it must end with.
    package struct Entry: Sendable {
        package var request: StillRequest
        package var completion: @Sendable (Result<StillCapture, BackendError>) -> Void

        package init(request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void) {
            self.request = request
            self.completion = completion
        }
    }

    private let state = Mutex<(entries: [Entry], closed: Bool)>(([], false))

    package init() {}

    /// Queues a request; false when the stream has already ended (the caller fails it).
    package func add(_ entry: Entry) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.entries.append(entry)
            return true
        }
    }

    /// The requests waiting now, oldest first (an empty array, allocating nothing, when none).
    package func take() -> [Entry] {
        state.withLock { state in
            guard !state.entries.isEmpty else { return [] }
            defer { state.entries = [] }
            return state.entries
        }
    }

    /// Whether requests are waiting (a camera that must copy something for a still asks first).
    package var hasEntries: Bool { state.withLock { !$0.entries.isEmpty } }

    /// Refuses further requests and returns those never taken.
    package func close() -> [Entry] {
        state.withLock { state in
            state.closed = true
            defer { state.entries = [] }
            return state.entries
        }
    }
}
