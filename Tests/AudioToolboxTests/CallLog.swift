import Foundation

/// Calls of a completion, as they came: the thread each ran on, whether it ran on the
/// server's completion queue, and the sound it was for.
final class CallLog: @unchecked Sendable {
    struct Call: Sendable {
        let thread: pthread_t
        let onCompletionQueue: Bool
        let soundID: UInt32
    }

    private let condition = NSCondition()
    private var recorded: [Call] = []

    func record(thread: pthread_t = pthread_self(), onCompletionQueue: Bool = false, soundID: UInt32 = 0) {
        condition.lock()
        defer { condition.unlock() }
        recorded.append(Call(thread: thread, onCompletionQueue: onCompletionQueue, soundID: soundID))
        condition.broadcast()
    }

    var calls: [Call] {
        condition.lock()
        defer { condition.unlock() }
        return recorded
    }

    /// Waits until `count` calls came (false if they did not within `seconds`).
    func wait(forCount count: Int, within seconds: Double = 60) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while recorded.count < count && condition.wait(until: deadline) {}
        return recorded.count >= count
    }
}
