import Foundation

/// A recursive lock that owns the state its holder keeps: the state is reachable only in
/// the bodies of `lock(_:)` (run once the lock is taken, which stays taken), `unlock(_:)`
/// (run before one hold is let go) and `withLock(_:)`.
///
/// Why: a lock taken in one call and let go in another (`ConfigurationLock`) cannot wrap
/// its state in a `Mutex`, and a plain variable beside it is guarded by nothing but a comment.
final class RecursiveLockState<State>: @unchecked Sendable {
    private let recursive = NSRecursiveLock()
    private var state: State

    init(_ state: State) { self.state = state }

    /// Takes the lock (again, on the thread holding it) and runs `body`; the lock stays taken.
    func lock<Result>(_ body: (inout State) -> Result) -> Result {
        recursive.lock()
        return body(&state)
    }

    /// Runs `body`, then lets go of one hold. Call with the lock taken.
    func unlock<Result>(_ body: (inout State) -> Result) -> Result {
        defer { recursive.unlock() }
        return body(&state)
    }

    /// Runs `body` with the lock taken for its duration.
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        recursive.lock()
        defer { recursive.unlock() }
        return body(&state)
    }
}
