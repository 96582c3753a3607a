import Foundation

/// The protocol Apple's Foundation overlay gives `NSObject` for key-path observation
/// (`observe(_:options:changeHandler:)`); Foundation on Linux has no KVO, so OpenCapture
/// declares it. Each observable capture class adds `observe` for its own key paths (see
/// `AVCaptureDevice+KeyValueObserving.swift` and its siblings).
public protocol _KeyValueCodingAndObserving {}

extension NSObject: _KeyValueCodingAndObserving {}

/// The typed `observe` shared by every observable class.
enum KeyPathObservation {
    /// Observes `keyPath` of `object`, whose class lists `keys`. A listed key path notifies
    /// whenever its key is announced; one the list leaves out is read again after every
    /// announcement on the object and notifies when it differs (see `DerivedValue`).
    static func observe<Root: KeyValueObservableObject, Value>(
        _ object: Root, _ keyPath: KeyPath<Root, Value>, keys: [ObservableKey<Root>],
        options: NSKeyValueObservingOptions, changeHandler: @escaping (Root, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let name = keys.first { $0.keyPath == keyPath }?.name
        return register(object, keyPath, name: name, registry: object.keyValueObservers,
                        options: options, changeHandler: changeHandler)
    }

    /// Observes `keyPath` of any object: through its registry when its class is observable
    /// (as an unlisted key path), else only the `.initial` call (an object no capture code
    /// changes: its properties are constants, which never notify on iOS either).
    static func observeUnlisted<Root: AnyObject, Value>(
        _ object: Root, _ keyPath: KeyPath<Root, Value>,
        options: NSKeyValueObservingOptions, changeHandler: @escaping (Root, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let registry = (object as? any KeyValueObservableObject)?.keyValueObservers
        return register(object, keyPath, name: nil, registry: registry, options: options, changeHandler: changeHandler)
    }

    private static func register<Root: AnyObject, Value>(
        _ object: Root, _ keyPath: KeyPath<Root, Value>, name: String?, registry: KeyValueObserverRegistry?,
        options: NSKeyValueObservingOptions, changeHandler: @escaping (Root, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let derived = name == nil && registry != nil ? DerivedValue(keyPath, on: object) : nil
        let registration = KeyValueRegistration(
            key: name ?? "", options: options, object: object, observer: nil, context: nil, derived: derived
        ) { target, old, new, isPrior in
            guard let target = target as? Root else { return }
            let change = NSKeyValueObservedChange<Value>(
                newValue: new.flatMap { $0 as? Value }, oldValue: old.flatMap { $0 as? Value }, isPrior: isPrior)
            changeHandler(target, change)
        }
        registration.notifyInitial(value: object[keyPath: keyPath])
        guard let registry else { return NSKeyValueObservation(registration: nil, registry: nil) }
        registry.add(registration)
        return NSKeyValueObservation(registration: registration, registry: registry)
    }
}

extension _KeyValueCodingAndObserving where Self: NSObject {
    /// Observes a property of any object (Apple's `observe(_:options:changeHandler:)`,
    /// which every `NSObject` has on iOS). Capture classes declare a more specific overload
    /// with their observable keys; this one serves the rest: on a capture object (a base
    /// class type such as `AVCaptureOutput`, or a key path its class does not list) the
    /// value is read again after every change announced on the object and notifies when it
    /// differs; on any other object only `.initial` is sent, since nothing can change its
    /// properties behind the caller's back without announcing. The observation ends when
    /// the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observeUnlisted(self, keyPath, options: options, changeHandler: changeHandler)
    }
}
