import Foundation

/// How an observation of a key path its class does not list (no `ObservableKey` for it,
/// or an `observe` reached through a base-class type) still hears of changes.
///
/// Apple's automatic KVO notifies every set made through a property's setter. Without the
/// Objective-C runtime nothing can intercept a setter, so a key path only notifies when
/// some code announces a change. The unlisted key path's observation remembers the value
/// it last saw; every announcement on the same object (any setter that announces, any
/// camera- or session-driven change, `willChangeValue(forKey:)`/`didChangeValue(forKey:)`)
/// reads it again and, when it differs, tells the observer (its prior notification, then
/// the one after, both with the remembered old value) on the thread making that
/// announcement. So a value derived from announced ones follows them (a movie output's
/// `isRecording` with its recording state, a base-typed `output.observe(\.isDeferredStartEnabled)`
/// with the subclass's setter), and a constant (`mediaType`, `uniqueID`) never fires,
/// as on iOS.
final class DerivedValue: @unchecked Sendable {
    private let read: (AnyObject) -> Any?
    private let same: (Any?, Any?) -> Bool
    private let last: Mutex<Any?>

    init<Root, Value>(_ keyPath: KeyPath<Root, Value>, on object: Root) {
        read = { ($0 as? Root).map { $0[keyPath: keyPath] } }
        same = DerivedValue.comparison(Value.self)
        last = Mutex(object[keyPath: keyPath])
    }

    /// Reads the value again; returns the remembered one and the new one when they differ.
    func refresh(on object: AnyObject) -> (old: Any?, new: Any?)? {
        let new = read(object)
        let boxed = UncheckedSendable(new)
        let old = last.withLock { last -> UncheckedSendable<Any?> in
            let old = UncheckedSendable(last)
            last = boxed.value
            return old
        }.value
        return same(old, new) ? nil : (old, new)
    }

    /// `==` for Equatable values (optional ones too), identity for objects, dictionary
    /// equality for property-list dictionaries (`videoSettings`); other values count as
    /// changed on every announcement, so an observer never misses a change.
    private static func comparison<Value>(_: Value.Type) -> (Any?, Any?) -> Bool {
        if let equatable = Value.self as? any Equatable.Type { return equality(equatable) }
        return { a, b in
            switch (a, b) {
            case (nil, nil): return true
            case let (a as [String: Any], b as [String: Any]): return NSDictionary(dictionary: a).isEqual(to: b)
            case let (a?, b?) where type(of: a) is AnyClass && type(of: b) is AnyClass: return (a as AnyObject) === (b as AnyObject)
            default: return false
            }
        }
    }

    private static func equality<T: Equatable>(_: T.Type) -> (Any?, Any?) -> Bool {
        { a, b in
            guard let a = a as? T, let b = b as? T else { return a == nil && b == nil }
            return a == b
        }
    }
}

extension KeyValueObserverRegistry {
    /// Tells the observers of unlisted key paths of `object` whose value changed. Call with
    /// no lock held, on the thread making the announcement.
    func refreshDerived(on object: AnyObject) {
        for registration in derivedRegistrations() {
            guard let derived = registration.derived, let change = derived.refresh(on: object) else { continue }
            registration.notify(old: change.old, new: nil, isPrior: true)
            registration.notify(old: change.old, new: change.new, isPrior: false)
        }
    }
}
