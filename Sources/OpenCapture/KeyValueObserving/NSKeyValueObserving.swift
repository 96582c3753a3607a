import Foundation

/// An observer of the string form, `addObserver(_:forKeyPath:options:context:)`.
///
/// On Apple platforms `observeValue(forKeyPath:of:change:context:)` is a method of
/// `NSObject` that observers override. Swift on Linux has no Objective-C runtime, so
/// `NSObject` cannot gain an overridable method: an observer declares this conformance
/// and implements the method without `override` (and without calling `super`). That is
/// the one change iOS code using the string form needs; `observe(_:options:changeHandler:)`
/// needs none.
public protocol NSKeyValueObserving: AnyObject {
    /// Called for each change of a key path the observer registered for, on the thread
    /// that made the change (see each class's list of keys for which thread that is).
    /// `change` holds `.kindKey` always, `.newKey`/`.oldKey` when asked for (nil values as
    /// `NSNull`), `.notificationIsPriorKey` in a prior notification.
    func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
                      context: UnsafeMutableRawPointer?)
}

extension NSObject {
    /// Registers `observer` for changes of `keyPath` (Apple's key string, e.g.
    /// "adjustingFocus", "ISO", "running"). The observer is not retained; it must conform
    /// to `NSKeyValueObserving` (raises `NSInvalidArgumentException` otherwise). On an
    /// object that is not a capture class the registration is accepted and never fires.
    public func addObserver(_ observer: NSObject, forKeyPath keyPath: String,
                            options: NSKeyValueObservingOptions = [], context: UnsafeMutableRawPointer?) {
        KeyValueStringForm.add(observer, keyPath, options, context, to: self as? any KeyValueObservableObject,
                               name: "\(type(of: self))") { $0 }
    }

    /// Removes the newest registration of `observer` for `keyPath` with `context`; raises
    /// `NSRangeException` when there is none, as on iOS.
    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?) {
        KeyValueStringForm.remove(observer, keyPath, context: context, anyContext: false,
                                  from: self as? any KeyValueObservableObject, description: KeyValueStringForm.describe(self))
    }

    /// Removes the newest registration of `observer` for `keyPath`; raises
    /// `NSRangeException` when there is none, as on iOS.
    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String) {
        KeyValueStringForm.remove(observer, keyPath, context: nil, anyContext: true,
                                  from: self as? any KeyValueObservableObject, description: KeyValueStringForm.describe(self))
    }

    /// Tells observers of `key` that the receiver is about to change it (Apple's manual
    /// notification). Pair with `didChangeValue(forKey:)`; call with no lock held.
    public func willChangeValue(forKey key: String) {
        guard let observable = self as? any KeyValueObservableObject, observable.keyValueObservers.isObserved else { return }
        let old = observable.observableKeyTable.value(of: key, on: self) ?? nil
        observable.keyValueObservers.pushOldValue(old, for: key)
        for observer in observable.keyValueObservers.registrations(for: key) {
            observer.notify(old: old, new: nil, isPrior: true)
        }
    }

    /// Tells observers of `key` that the receiver changed it (Apple's manual notification).
    public func didChangeValue(forKey key: String) {
        guard let observable = self as? any KeyValueObservableObject else { return }
        let old = observable.keyValueObservers.popOldValue(for: key)
        guard observable.keyValueObservers.isObserved else { return }
        let new = observable.observableKeyTable.value(of: key, on: self) ?? nil
        for observer in observable.keyValueObservers.registrations(for: key) {
            observer.notify(old: old ?? nil, new: new, isPrior: false)
        }
        observable.keyValueObservers.refreshDerived(on: self)
    }
}
