import Foundation

/// The protocol Apple's Foundation overlay gives `NSObject` for key-path observation
/// (`observe(_:options:changeHandler:)`); Foundation on Linux has no KVO, so OpenCapture
/// declares it. Each observable capture class adds `observe` for its own key paths (see
/// `AVCaptureDevice+KeyValueObserving.swift` and its siblings).
public protocol _KeyValueCodingAndObserving {}

extension NSObject: _KeyValueCodingAndObserving {}

/// The typed `observe` shared by every observable class.
enum KeyPathObservation {
    /// Observes `keyPath` of `object`, whose class lists `keys`. A key path that is not
    /// observable gives an observation that only sends the `.initial` call.
    static func observe<Root: KeyValueObservableObject, Value>(
        _ object: Root, _ keyPath: KeyPath<Root, Value>, keys: [ObservableKey<Root>],
        options: NSKeyValueObservingOptions, changeHandler: @escaping (Root, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let name = keys.first { $0.keyPath == keyPath }?.name
        let registration = KeyValueRegistration(
            key: name ?? "", options: options, object: object, observer: nil, context: nil
        ) { target, old, new, isPrior in
            guard let target = target as? Root else { return }
            let change = NSKeyValueObservedChange<Value>(
                newValue: new.flatMap { $0 as? Value }, oldValue: old.flatMap { $0 as? Value }, isPrior: isPrior)
            changeHandler(target, change)
        }
        registration.notifyInitial(value: object[keyPath: keyPath])
        guard name != nil else { return NSKeyValueObservation(registration: nil, registry: nil) }
        object.keyValueObservers.add(registration)
        return NSKeyValueObservation(registration: registration, registry: object.keyValueObservers)
    }
}
