import Foundation

/// The session's configuration lock: recursive (devices and outputs call back into the
/// session while it configures), and never held while waiting for user code. It guards the
/// session's graph (inputs, outputs, connections); the run is the `SessionRunner`'s.
///
/// What must wait for user code (a delegate call in progress when an inbox closes) is
/// queued with `afterUnlock(_:)` and run by the thread that lets go of the outermost hold,
/// after letting go: `stopRunning()` still returns only once no delegate call of the run is
/// in progress, and a delegate that needs the lock meanwhile gets it.
final class ConfigurationLock: Sendable {
    private let held = RecursiveLockState(Holds())

    /// The lock's own bookkeeping, reachable only while the lock is held.
    private struct Holds {
        /// Holds by the owning thread.
        var depth = 0
        /// Waits queued during the holds, run after the outermost is let go.
        var waits: [() -> Void] = []
        /// The session whose observed keys (`isRunning`, `isInterrupted`, …) every outermost
        /// hold watches: what changed is announced by the releasing thread after releasing.
        weak var observable: (any KeyValueObservableObject)?
        var watch: KeyValueChange?
        /// Watches of objects whose keys follow the session's state (its connections'
        /// `active`, its preview layers' `previewing` and `connection`), taken with the session's.
        var dependents: (() -> [KeyValueChange])?
        var dependentWatches: [KeyValueChange] = []
    }

    /// Sets what every outermost hold watches: `observable`'s keys, and `dependents`' watches.
    func watch(_ observable: any KeyValueObservableObject, dependents: @escaping () -> [KeyValueChange]) {
        held.withLock { holds in
            holds.observable = observable
            holds.dependents = dependents
        }
    }

    func lock() {
        let outermost = held.lock { holds -> (observable: (any KeyValueObservableObject)?, dependents: (() -> [KeyValueChange])?)? in
            holds.depth += 1
            return holds.depth == 1 ? (holds.observable, holds.dependents) : nil
        }
        guard let outermost else { return }
        // Watched with the lock held, outside the bookkeeping's access (watching reads keys).
        let watch = outermost.observable.flatMap { KeyValueChange.watch($0) }
        let dependentWatches = outermost.dependents?() ?? []
        held.withLock { holds in
            holds.watch = watch
            holds.dependentWatches = dependentWatches
        }
    }

    func unlock() {
        let (pending, observed, dependents) = held.unlock { holds -> ([() -> Void], KeyValueChange?, [KeyValueChange]) in
            holds.depth -= 1
            guard holds.depth == 0 else { return ([], nil, []) }
            defer {
                holds.waits.removeAll()
                holds.watch = nil
                holds.dependentWatches.removeAll()
            }
            return (holds.waits, holds.watch, holds.dependentWatches)
        }
        for wait in pending { wait() }
        observed?.didChange()
        for dependent in dependents { dependent.didChange() }
    }

    /// Runs `wait` once the outermost hold is released, on the releasing thread, with no
    /// lock held. Call with the lock held.
    func afterUnlock(_ wait: @escaping () -> Void) {
        held.withLock { $0.waits.append(wait) }
    }
}
