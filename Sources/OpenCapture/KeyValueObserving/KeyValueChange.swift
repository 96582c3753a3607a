import Foundation

/// A change to observed properties of one object, announced around the code that makes it.
///
/// Two kinds:
/// - `willChange(_:_:)` for changes made by a setter on the caller's thread: prior
///   notifications go out at once (before the change), and `didChange()` notifies every
///   observer of those keys, changed or not, as Apple's automatic notification does for
///   every set. Call both with no lock held.
/// - `watch(_:)` for changes the camera or the session makes on their own: it reads the
///   observed keys before, and `didChange()` / `didChange(on:)` announces only the keys
///   whose value differs, each observer getting its prior notification (with the old
///   value) and then the one after.
///
/// Both return nil when nobody observes the object, after one atomic load: that is all
/// the frame path pays when nobody observes.
package struct KeyValueChange {
    private struct Pending {
        let key: String
        let old: Any?
        let observers: [KeyValueRegistration]
    }

    private let object: AnyObject
    private let table: ObservableKeyTable
    private let pending: [Pending]
    private let onlyIfChanged: Bool

    /// Announces that `keys` of `object` are about to be set by the calling thread.
    package static func willChange(_ object: some KeyValueObservableObject, keys: [String]) -> KeyValueChange? {
        let registry = object.keyValueObservers
        guard registry.isObserved else { return nil }
        let table = object.observableKeyTable
        let pending = keys.compactMap { key -> Pending? in
            let observers = registry.registrations(for: key)
            guard !observers.isEmpty else { return nil }
            return Pending(key: key, old: table.value(of: key, on: object) ?? nil, observers: observers)
        }
        // Unlisted key paths are read again after any set (see `DerivedValue`).
        guard !pending.isEmpty || !registry.derivedRegistrations().isEmpty else { return nil }
        for item in pending {
            for observer in item.observers { observer.notify(old: item.old, new: nil, isPrior: true) }
        }
        return KeyValueChange(object: object, table: table, pending: pending, onlyIfChanged: false)
    }

    /// `willChange(_:keys:)` for an object whose observability is known only at run time
    /// (a base class's setter); nil when its class is not observable.
    package static func willChange(anyObject object: AnyObject, keys: [String]) -> KeyValueChange? {
        guard let observable = object as? any KeyValueObservableObject else { return nil }
        return willChange(observable, keys: keys)
    }

    /// Reads the observed keys (all, or those in `keys`) of `object` before something
    /// else changes them.
    package static func watch(_ object: some KeyValueObservableObject, keys: [String]? = nil) -> KeyValueChange? {
        let registry = object.keyValueObservers
        guard registry.isObserved else { return nil }
        let table = object.observableKeyTable
        let observed = registry.observedKeys().filter { keys?.contains($0) ?? true }
        let pending = observed.compactMap { key -> Pending? in
            guard let old = table.value(of: key, on: object) else { return nil }
            return Pending(key: key, old: old, observers: [])
        }
        // Unlisted key paths follow every announcement, camera-driven ones too (`DerivedValue`).
        guard !pending.isEmpty || !registry.derivedRegistrations().isEmpty else { return nil }
        return KeyValueChange(object: object, table: table, pending: pending, onlyIfChanged: true)
    }

    /// Announces the change on the calling thread. Call with no lock held.
    package func didChange() {
        let changes = changes()
        for (item, new) in changes { Self.announce(item, new: new, prior: onlyIfChanged, registry: registry) }
        registry?.refreshDerived(on: object)
    }

    /// Announces the change on `queue` (a camera's changes, from its capture thread).
    package func didChange(on queue: DispatchQueue) {
        let changes = UncheckedSendable(changes())
        guard !changes.value.isEmpty || !(registry?.derivedRegistrations().isEmpty ?? true) else { return }
        let registry = UncheckedSendable(registry)
        let object = UncheckedSendable(object)
        queue.async {
            for (item, new) in changes.value { Self.announce(item, new: new, prior: true, registry: registry.value) }
            registry.value?.refreshDerived(on: object.value)
        }
    }

    private var registry: KeyValueObserverRegistry? { (object as? any KeyValueObservableObject)?.keyValueObservers }

    private func changes() -> [(Pending, Any?)] {
        pending.compactMap { item in
            let new = table.value(of: item.key, on: object) ?? nil
            if onlyIfChanged && table.isSame(item.key, item.old, new) { return nil }
            return (item, new)
        }
    }

    private static func announce(_ item: Pending, new: Any?, prior: Bool, registry: KeyValueObserverRegistry?) {
        // A watch found its observers only now; a setter's change tells those that were
        // told it was coming.
        let observers = prior ? registry?.registrations(for: item.key) ?? [] : item.observers
        if prior {
            for observer in observers { observer.notify(old: item.old, new: nil, isPrior: true) }
        }
        for observer in observers { observer.notify(old: item.old, new: new, isPrior: false) }
    }
}

extension KeyValueObservableObject {
    /// Runs `body`, a setter's change to `keys`, between the prior notifications and the
    /// ones after it. Call with no lock held.
    package func changingValues<R, E: Error>(_ keys: String..., body: () throws(E) -> R) throws(E) -> R {
        let change = KeyValueChange.willChange(self, keys: keys)
        defer { change?.didChange() }
        return try body()
    }

    /// Runs `body`, which may change `keys` (a status, a readiness), and announces on this
    /// thread the ones whose value differs afterwards. Call with no lock held; one atomic
    /// load when nobody observes.
    package func watchingValues<R>(_ keys: String..., body: () -> R) -> R {
        let change = KeyValueChange.watch(self, keys: keys)
        defer { change?.didChange() }
        return body()
    }
}

extension KeyValueChange {
    /// Announces on `queue` that `key` of `object` changed from `old` to its current value
    /// (for a change found after the fact, such as an unplugged camera).
    package static func didChange(_ object: some KeyValueObservableObject, key: String, from old: Any?, on queue: DispatchQueue) {
        guard object.keyValueObservers.isObserved else { return }
        let change = KeyValueChange(object: object, table: object.observableKeyTable,
                                    pending: [Pending(key: key, old: old, observers: [])], onlyIfChanged: true)
        change.didChange(on: queue)
    }
}
