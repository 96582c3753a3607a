import Foundation

/// State owned by a condition lock: read and changed only in `withLock` and `wait`, and a
/// change another thread waits for is announced with `broadcast: true`.
///
/// Why: a `Mutex` cannot be waited on, and a plain variable beside an `NSCondition` is
/// guarded by nothing but a comment. Each access to the state begins and ends with the
/// lock held; the lock is let go only between them, while waiting.
final class ConditionState<State>: @unchecked Sendable {
    private let condition = NSCondition()
    private var state: State

    init(_ state: State) { self.state = state }

    /// Runs `body` with the lock held; with `broadcast`, wakes the threads in `wait` after.
    func withLock<Result>(broadcast: Bool = false, _ body: (inout State) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            if broadcast { condition.broadcast() }
            condition.unlock()
        }
        return try body(&state)
    }

    /// Runs `step` with the lock held until it answers, letting go of the lock between
    /// tries until a broadcast or `interval` seconds have passed.
    func wait<Result>(polling interval: TimeInterval, until step: (inout State) -> Result?) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = step(&state) { return result }
            _ = condition.wait(until: Date(timeIntervalSinceNow: interval))
        }
    }
}
