import Foundation

/// One key-value observable property of `Root`: its key path, Apple's key string for it
/// (`\.isAdjustingFocus` is "adjustingFocus", `\.iso` is "ISO"), how to read it and when two
/// readings count as the same value (camera-driven changes notify only on a difference).
package struct ObservableKey<Root: AnyObject> {
    package let name: String
    package let keyPath: PartialKeyPath<Root>
    let same: (Any, Any) -> Bool

    /// A key whose values compare with `==`.
    package init<Value: Equatable>(_ keyPath: KeyPath<Root, Value>, _ name: String) {
        self.init(keyPath, name) { $0 == $1 }
    }

    /// A key whose values compare with `same` (e.g. a new state object per reading).
    package init<Value>(_ keyPath: KeyPath<Root, Value>, _ name: String, same: @escaping (Value, Value) -> Bool) {
        self.name = name
        self.keyPath = keyPath
        self.same = { a, b in
            guard let a = a as? Value, let b = b as? Value else { return false }
            return same(a, b)
        }
    }
}

/// A class's observable keys by Apple's key string, for the string form and for finding
/// what changed.
package struct ObservableKeyTable: @unchecked Sendable {
    struct Entry {
        let read: (AnyObject) -> Any?
        let same: (Any, Any) -> Bool
    }

    private let entries: [String: Entry]

    package init<Root: AnyObject>(_ keys: [ObservableKey<Root>]) {
        var entries: [String: Entry] = [:]
        for key in keys {
            let path = key.keyPath
            entries[key.name] = Entry(read: { ($0 as? Root).map { $0[keyPath: path] } }, same: key.same)
        }
        self.entries = entries
    }

    /// The current value of `key` on `object`, or nil when the class has no such key.
    func value(of key: String, on object: AnyObject) -> Any?? {
        guard let entry = entries[key] else { return nil }
        return .some(entry.read(object))
    }

    /// Whether two readings of `key` are the same value.
    func isSame(_ key: String, _ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return entries[key]?.same(a, b) ?? false
        default: return false
        }
    }
}

/// A capture class whose properties can be observed: it owns (or shares, for device
/// handles) a registry and names its keys.
package protocol KeyValueObservableObject: AnyObject {
    /// The observers of this object.
    var keyValueObservers: KeyValueObserverRegistry { get }
    /// The class's observable keys.
    var observableKeyTable: ObservableKeyTable { get }
}
