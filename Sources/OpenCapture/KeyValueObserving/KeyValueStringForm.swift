import Foundation

/// The string form of observation (`addObserver(_:forKeyPath:options:context:)` and
/// `removeObserver(_:forKeyPath:)`), shared by instances and by class objects
/// (`AVCaptureDevice.self.addObserver(...)`, whose keys live in a holder object).
enum KeyValueStringForm {
    /// Registers `observer` on `observable` (nil: an object with no observable keys, where
    /// the registration is accepted and never fires). `reported` maps the holder to the
    /// object the observer is told about (`of object:`).
    static func add(_ observer: NSObject, _ keyPath: String, _ options: NSKeyValueObservingOptions,
                    _ context: UnsafeMutableRawPointer?, to observable: (any KeyValueObservableObject)?,
                    name: String, reported: @escaping @Sendable (AnyObject) -> Any) {
        guard let receiver = observer as? any NSKeyValueObserving else {
            AVCaptureException(.invalidArgument, selectorReason(
                name, "addObserver:forKeyPath:options:context:",
                "\(observer) does not conform to NSKeyValueObserving (on Linux an observer declares it and implements observeValue(forKeyPath:of:change:context:))")).raise()
        }
        guard let observable else { return }
        let registration = KeyValueRegistration(
            key: keyPath, options: options, object: observable, observer: observer, context: context
        ) { [weak receiver] target, old, new, isPrior in
            guard let receiver else { return }
            var change: [NSKeyValueChangeKey: Any] = [.kindKey: NSNumber(value: NSKeyValueChange.setting.rawValue)]
            if let old { change[.oldKey] = old ?? NSNull() }
            if let new { change[.newKey] = new ?? NSNull() }
            if isPrior { change[.notificationIsPriorKey] = NSNumber(value: true) }
            receiver.observeValue(forKeyPath: keyPath, of: reported(target), change: change, context: context)
        }
        if options.contains(.initial) {
            registration.notifyInitial(value: observable.observableKeyTable.value(of: keyPath, on: observable) ?? nil)
        }
        observable.keyValueObservers.add(registration)
    }

    /// Removes the newest matching registration; raises `NSRangeException` when there is
    /// none on an observable object, as on iOS.
    static func remove(_ observer: NSObject, _ keyPath: String, context: UnsafeMutableRawPointer?, anyContext: Bool,
                       from observable: (any KeyValueObservableObject)?, description: String) {
        guard let observable else { return }
        if let registration = observable.keyValueObservers.lastRegistration(
            observer: observer, key: keyPath, context: context, anyContext: anyContext) {
            _ = observable.keyValueObservers.remove(registration)
            return
        }
        AVCaptureException(.range, "Cannot remove an observer \(describe(observer)) for the key path \"\(keyPath)\" from \(description) because it is not registered as an observer.").raise()
    }

    /// Apple's `<Class 0xaddress>` description of an object.
    static func describe(_ object: AnyObject) -> String {
        "<\(type(of: object)) \(Unmanaged.passUnretained(object).toOpaque())>"
    }
}
