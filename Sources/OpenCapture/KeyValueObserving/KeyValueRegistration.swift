import Foundation
import Synchronization

/// One observer of one key of one object: made by `observe(_:options:changeHandler:)` or
/// `addObserver(_:forKeyPath:options:context:)`, ended by `invalidate()`, by releasing the
/// `NSKeyValueObservation`, or by `removeObserver(_:forKeyPath:)`.
final class KeyValueRegistration: @unchecked Sendable {
    let key: String
    let options: NSKeyValueObservingOptions
    /// The object observed (the handle the observer registered with); not retained.
    weak var object: AnyObject?
    /// The string form's observer (not retained, as on iOS); nil for `observe`.
    weak var observer: AnyObject?
    let context: UnsafeMutableRawPointer?
    /// Calls the observer: object, old value, new value, whether prior. Values are passed
    /// only when the options ask for them.
    private let handler: (AnyObject, Any??, Any??, Bool) -> Void
    private let live = Atomic<Bool>(true)
    /// Set for a key path the class does not list (see `DerivedValue`); nil for listed keys.
    let derived: DerivedValue?

    init(key: String, options: NSKeyValueObservingOptions, object: AnyObject, observer: AnyObject?,
         context: UnsafeMutableRawPointer?, derived: DerivedValue? = nil,
         handler: @escaping (AnyObject, Any??, Any??, Bool) -> Void) {
        self.derived = derived
        self.key = key
        self.options = options
        self.object = object
        self.observer = observer
        self.context = context
        self.handler = handler
    }

    var isLive: Bool { live.load(ordering: .acquiring) }

    /// Marks the registration ended; true the first time.
    func end() -> Bool { live.exchange(false, ordering: .acquiringAndReleasing) }

    /// Announces a change: the prior notification (only with `.prior`) or the one after
    /// it. Ended registrations, and ones whose object is gone, get nothing.
    func notify(old: Any?, new: Any?, isPrior: Bool) {
        guard isLive, let object else { return }
        if isPrior && !options.contains(.prior) { return }
        let oldValue: Any?? = options.contains(.old) ? .some(old) : nil
        let newValue: Any?? = options.contains(.new) && !isPrior ? .some(new) : nil
        handler(object, oldValue, newValue, isPrior)
    }

    /// The `.initial` notification, sent while registering.
    func notifyInitial(value: Any?) {
        guard isLive, let object, options.contains(.initial) else { return }
        handler(object, nil, options.contains(.new) ? .some(value) : nil, false)
    }
}
