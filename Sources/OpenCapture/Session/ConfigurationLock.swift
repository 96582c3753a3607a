import Foundation

/// The session's configuration lock: recursive (devices and outputs call back into the
/// session while it configures), and never held while waiting for user code.
///
/// What must wait for user code (a delegate call in progress when an inbox closes) is
/// queued with `afterUnlock(_:)` and run by the thread that lets go of the outermost hold,
/// after letting go: `stopRunning()` still returns only once no delegate call of the run is
/// in progress, and a delegate that needs the lock meanwhile gets it.
final class ConfigurationLock: @unchecked Sendable {
    private let recursive = NSRecursiveLock()
    /// Holds by the owning thread, and the waits queued during them; touched under `recursive`.
    private var depth = 0
    private var waits: [() -> Void] = []
    /// The session whose observed keys (`isRunning`, `isInterrupted`, …) every outermost
    /// hold watches: what changed is announced by the releasing thread after releasing.
    weak var observable: (any KeyValueObservableObject)?
    private var watch: KeyValueChange?
    /// Watches of objects whose keys follow the session's state (its connections' `active`,
    /// its preview layers' `previewing` and `connection`), taken with the session's.
    var dependents: (() -> [KeyValueChange])?
    private var dependentWatches: [KeyValueChange] = []

    func lock() {
        recursive.lock()
        depth += 1
        if depth == 1 {
            if let observable { watch = KeyValueChange.watch(observable) }
            dependentWatches = dependents?() ?? []
        }
    }

    func unlock() {
        depth -= 1
        guard depth == 0, !waits.isEmpty || watch != nil || !dependentWatches.isEmpty else { return recursive.unlock() }
        let pending = waits
        let observed = watch
        let dependents = dependentWatches
        waits.removeAll()
        watch = nil
        dependentWatches.removeAll()
        recursive.unlock()
        for wait in pending { wait() }
        observed?.didChange()
        for dependent in dependents { dependent.didChange() }
    }

    /// Runs `wait` once the outermost hold is released, on the releasing thread, with no
    /// lock held. Call with the lock held.
    func afterUnlock(_ wait: @escaping () -> Void) {
        waits.append(wait)
    }
}
