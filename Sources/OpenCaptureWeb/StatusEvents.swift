import Foundation

/// `/events`: the camera's status as server-sent events (`text/event-stream`), one `status`
/// event twice a second, for pages and tools that follow the readouts without polling.
final class StatusEvents: WebStream, @unchecked Sendable {
    private let status: @Sendable () -> [String: Any]?
    private let interval: Double
    private let condition = NSCondition()
    private var cancelled = false
    private var sent = 0

    init(interval: Double = 0.5, status: @escaping @Sendable () -> [String: Any]?) {
        self.interval = interval
        self.status = status
    }

    func next() -> Data? {
        condition.lock()
        // The first event at once, then one every `interval`.
        if sent > 0 && !cancelled { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
        let over = cancelled
        sent += 1
        condition.unlock()
        guard !over, let object = status(),
            let json = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return nil }
        return Data("event: status\ndata: ".utf8) + json + Data("\n\n".utf8)
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
