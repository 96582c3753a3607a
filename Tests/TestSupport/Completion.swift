import Foundation
import Testing

/// A value a callback delivers once (a still, a photo, a finished recording), and a wait
/// for it that returns the moment it is there or fails the test naming what never came.
package final class Completion<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?
    private let what: String

    /// - Parameter what: what is awaited, for the failure message ("the photo").
    package init(_ what: String) {
        self.what = what
    }

    /// Delivers the value (the first one counts) and wakes the waiters.
    package func fulfil(_ value: Value) {
        condition.lock()
        defer { condition.unlock() }
        if self.value == nil { self.value = value }
        condition.broadcast()
    }

    /// Whether the value arrived.
    package var isFulfilled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return value != nil
    }

    /// Waits for the value; fails the test (and throws) when it does not come within `timeout`.
    @discardableResult
    package func wait(within timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) throws -> Value {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        condition.lock()
        while value == nil && condition.wait(until: deadline) {}
        let result = value
        condition.unlock()
        return try #require(result, "\(what) did not come within \(timeout)", sourceLocation: sourceLocation)
    }
}

extension Completion where Value == Void {
    /// Marks it done.
    package func fulfil() { fulfil(()) }
}
