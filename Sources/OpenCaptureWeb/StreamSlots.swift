import Foundation

/// Bounds the streaming responses (MJPEG, server-sent events) open at once. A stream holds
/// its connection for as long as the client likes, and `ConnectionGuard` can only make room
/// by closing connections still waiting for a request, so without a bound a flood of
/// complete stream requests (any local process, no token needed on loopback) would hold
/// every slot. Below `limit`, the rest of the connections stay for the page, `/status` and
/// `/control`.
final class StreamSlots: @unchecked Sendable {
    /// Streams allowed at once.
    let limit: Int
    private let lock = NSLock()
    private var open = 0

    /// The bound for a server of `connectionLimit` connections: a quarter of them (at least
    /// two, and at most all but one) is kept for requests that are not streams.
    init(connectionLimit: Int) {
        limit = max(1, connectionLimit - max(2, connectionLimit / 4))
    }

    /// `stream` counted against the bound and given back when it ends, or nil when the
    /// bound is reached.
    func admit(_ make: () -> WebStream) -> WebStream? {
        lock.lock()
        guard open < limit else {
            lock.unlock()
            return nil
        }
        open += 1
        lock.unlock()
        return CountedStream(make(), slots: self)
    }

    fileprivate func release() {
        lock.lock()
        open -= 1
        lock.unlock()
    }

    /// Streams open now.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return open
    }
}

/// A stream that gives its slot back once, when it is first cancelled (the daemon cancels a
/// stream when its connection ends and when its response is released: both may happen).
private final class CountedStream: WebStream, @unchecked Sendable {
    private let inner: WebStream
    private let slots: StreamSlots
    private let lock = NSLock()
    private var released = false

    init(_ inner: WebStream, slots: StreamSlots) {
        self.inner = inner
        self.slots = slots
    }

    func next() -> Data? { inner.next() }

    func cancel() {
        inner.cancel()
        lock.lock()
        let first = !released
        released = true
        lock.unlock()
        if first { slots.release() }
    }
}
