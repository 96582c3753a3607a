import Foundation
import Testing

/// Waits until `condition` holds: checks it at once, then every `interval` (a millisecond
/// unless checking is costly), and returns true as soon as it holds. When `timeout` passes
/// first, records an issue at the caller naming what did not happen (`description`) and
/// returns false.
///
/// This is the one way a test waits for something that has no completion of its own to
/// wait on; it never sits out its deadline when the condition already holds. Async tests
/// call it too: it blocks one thread while it polls, which the notifications and capture
/// threads it waits for never need.
@discardableResult
package func eventually(
    _ description: @autoclosure () -> String, within timeout: Duration = .seconds(20),
    checkingEvery interval: Duration = .milliseconds(1), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () throws -> Bool
) rethrows -> Bool {
    if try waitUntil(within: timeout, checkingEvery: interval, condition) { return true }
    Issue.record("\(description()): not within \(timeout)", sourceLocation: sourceLocation)
    return false
}

/// Polls `condition` as `eventually` does but records nothing: for waits whose timing out
/// is an answer, not a failure (a device that may not be there). Returns whether it held.
package func waitUntil(
    within timeout: Duration, checkingEvery interval: Duration = .milliseconds(1), _ condition: () throws -> Bool
) rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
        if try condition() { return true }
        if clock.now >= deadline { return false }
        usleep(useconds_t(interval.seconds * 1e6))
    }
}

extension Duration {
    /// The duration in seconds, for Foundation's dates and Dispatch's timeouts.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}

/// Returns once everything the main queue held when it was called has run: notifications
/// posted through the main queue before then have been delivered.
package func drainMainQueue() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { done.resume() }
    }
}
