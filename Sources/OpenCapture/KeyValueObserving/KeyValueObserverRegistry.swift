import Foundation
import Synchronization

/// The observers of one observable object (for a device: of every handle on it), and the
/// queue its camera-driven changes are announced on.
///
/// Cost when nobody observes: `isObserved` is one atomic load, and the code that changes
/// a property checks it before doing anything else (see `KeyValueChange`). Registrations
/// live under a leaf mutex that is never held while an observer runs: delivery works on a
/// copy of the list.
package final class KeyValueObserverRegistry: @unchecked Sendable {
    /// How many registrations are live; read without the lock on the frame path.
    private let count = Atomic<Int>(0)
    private let registrations = Mutex<[KeyValueRegistration]>([])
    /// Old values taken by `willChangeValue(forKey:)`, by key, until the matching
    /// `didChangeValue(forKey:)`.
    private let pendingOldValues = Mutex<[String: [Any?]]>([:])
    /// The serial queue camera-driven changes (auto exposure, focus and white balance
    /// converging, pressure, zoom ramps, unplugging) are announced on, in order.
    package let changeQueue: DispatchQueue

    /// Set on every change queue to its label, so code (and tests) can tell where they run.
    package static let queueLabelKey = DispatchSpecificKey<String>()

    package init(label: String) {
        changeQueue = DispatchQueue(label: "OpenCapture.kvo.\(label)")
        changeQueue.setSpecific(key: Self.queueLabelKey, value: changeQueue.label)
    }

    /// Whether anyone observes any key of the object: one atomic load.
    @inline(__always)
    package var isObserved: Bool { count.load(ordering: .acquiring) > 0 }

    func add(_ registration: KeyValueRegistration) {
        registrations.withLock { $0.append(registration) }
        count.add(1, ordering: .releasing)
    }

    /// Ends `registration`; false when it had already ended.
    @discardableResult
    func remove(_ registration: KeyValueRegistration) -> Bool {
        guard registration.end() else { return false }
        let removed = registrations.withLock { list in
            let before = list.count
            list.removeAll { $0 === registration }
            return before - list.count
        }
        if removed > 0 { count.subtract(removed, ordering: .releasing) }
        return removed > 0
    }

    /// The newest live registration of the string form matching observer, key and, when
    /// given, context (`removeObserver(_:forKeyPath:context:)` removes the newest first).
    func lastRegistration(observer: AnyObject, key: String, context: UnsafeMutableRawPointer?, anyContext: Bool) -> KeyValueRegistration? {
        registrations.withLock { list in
            list.last { $0.key == key && $0.observer === observer && (anyContext || $0.context == context) }
        }
    }

    /// A copy of the live registrations for `key`, in the order they were made.
    func registrations(for key: String) -> [KeyValueRegistration] {
        guard isObserved else { return [] }
        return registrations.withLock { $0.filter { $0.key == key } }
    }

    /// A copy of the live registrations of unlisted key paths (see `DerivedValue`).
    func derivedRegistrations() -> [KeyValueRegistration] {
        guard isObserved else { return [] }
        return registrations.withLock { $0.filter { $0.derived != nil } }
    }

    /// The keys someone observes now.
    func observedKeys() -> [String] {
        guard isObserved else { return [] }
        var seen = Set<String>()
        return registrations.withLock { $0.filter { $0.derived == nil }.map(\.key) }.filter { seen.insert($0).inserted }
    }

    func pushOldValue(_ value: Any?, for key: String) {
        pendingOldValues.withLock { $0[key, default: []].append(value) }
    }

    func popOldValue(for key: String) -> Any?? {
        pendingOldValues.withLock { pending -> Any?? in
            guard var stack = pending[key], let value = stack.popLast() else { return nil }
            pending[key] = stack.isEmpty ? nil : stack
            return .some(value)
        }
    }
}
