import Foundation

/// `AVCaptureDevice`'s observable class properties, `systemPreferredCamera` and
/// `userPreferredCamera`, held by one object so that class-level observation uses the same
/// machinery as instances (`AVCaptureDevice.self.observe(\.systemPreferredCamera, ...)`).
///
/// Threads: setting `userPreferredCamera` notifies on the setting thread before the setter
/// returns; a camera coming or going notifies on the serial queue "OpenCapture.kvo.AVCaptureDevice".
final class DeviceClassProperties: KeyValueObservableObject, @unchecked Sendable {
    static let shared = DeviceClassProperties()

    let keyValueObservers = KeyValueObserverRegistry(label: "AVCaptureDevice")
    var observableKeyTable: ObservableKeyTable { Self.keyTable }
    private static let keyTable = ObservableKeyTable(keys())

    static func keys() -> [ObservableKey<DeviceClassProperties>] {
        [
            ObservableKey(\DeviceClassProperties.systemPreferredCamera, "systemPreferredCamera"),
            ObservableKey(\DeviceClassProperties.userPreferredCamera, "userPreferredCamera"),
        ]
    }

    var systemPreferredCamera: AVCaptureDevice? { AVCaptureDevice.systemPreferredCamera }
    var userPreferredCamera: AVCaptureDevice? { AVCaptureDevice.userPreferredCamera }

    /// The values last announced (or read), to say what a camera's coming or going changed.
    private let last = Mutex<(system: AVCaptureDevice?, user: AVCaptureDevice?)>((nil, nil))

    private init() { remember() }

    private func remember() {
        let now = (systemPreferredCamera, userPreferredCamera)
        last.withLock { $0 = now }
    }

    /// Runs a change to the user's preference made by the calling thread, announcing what it
    /// changed before returning.
    func settingPreference(_ body: () -> Void) {
        let change = KeyValueChange.watch(self)
        body()
        remember()
        change?.didChange()
    }

    /// A camera came or went: announces the class properties that changed, on the queue.
    func camerasChanged() {
        let before = last.withLock { $0 }
        remember()
        KeyValueChange.didChange(self, key: "systemPreferredCamera", from: before.system, on: keyValueObservers.changeQueue)
        KeyValueChange.didChange(self, key: "userPreferredCamera", from: before.user, on: keyValueObservers.changeQueue)
    }
}

extension AVCaptureDevice {
    /// Observes a class property, `systemPreferredCamera` or `userPreferredCamera` (Apple's
    /// `AVCaptureDevice.self.observe(\.systemPreferredCamera, options:changeHandler:)`). Other
    /// key paths get only the `.initial` call. Ends when the result is invalidated or released.
    public class func observe<Value>(
        _ keyPath: KeyPath<AVCaptureDevice.Type, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (AVCaptureDevice.Type, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let holder = DeviceClassProperties.shared
        let mapped: KeyPath<DeviceClassProperties, Value>?
        switch keyPath {
        case \AVCaptureDevice.Type.systemPreferredCamera: mapped = \DeviceClassProperties.systemPreferredCamera as? KeyPath<DeviceClassProperties, Value>
        case \AVCaptureDevice.Type.userPreferredCamera: mapped = \DeviceClassProperties.userPreferredCamera as? KeyPath<DeviceClassProperties, Value>
        default: mapped = nil
        }
        guard let mapped else {
            if options.contains(.initial) {
                let value = options.contains(.new) ? AVCaptureDevice.self[keyPath: keyPath] : nil
                changeHandler(AVCaptureDevice.self, NSKeyValueObservedChange(newValue: value, oldValue: nil, isPrior: false))
            }
            return NSKeyValueObservation(registration: nil, registry: nil)
        }
        return KeyPathObservation.observe(holder, mapped, keys: DeviceClassProperties.keys(), options: options) { _, change in
            changeHandler(AVCaptureDevice.self, change)
        }
    }
}

extension AVCaptureDevice {
    /// The string form on the class object, as AVCam writes it:
    /// `AVCaptureDevice.self.addObserver(self, forKeyPath: "systemPreferredCamera", options: [.new], context: nil)`.
    /// Keys: "systemPreferredCamera", "userPreferredCamera" (others are accepted and never
    /// fire). The observer is told `of: AVCaptureDevice.self`, on the threads listed for
    /// `DeviceClassProperties`.
    public class func addObserver(_ observer: NSObject, forKeyPath keyPath: String,
                                  options: NSKeyValueObservingOptions = [], context: UnsafeMutableRawPointer?) {
        KeyValueStringForm.add(observer, keyPath, options, context, to: DeviceClassProperties.shared,
                               name: "AVCaptureDevice") { _ in AVCaptureDevice.self }
    }

    /// Removes the class object's newest registration of `observer` for `keyPath` with
    /// `context`; raises `NSRangeException` when there is none, as on iOS.
    public class func removeObserver(_ observer: NSObject, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?) {
        KeyValueStringForm.remove(observer, keyPath, context: context, anyContext: false,
                                  from: DeviceClassProperties.shared, description: "<AVCaptureDevice>")
    }

    /// Removes the class object's newest registration of `observer` for `keyPath`; raises
    /// `NSRangeException` when there is none, as on iOS.
    public class func removeObserver(_ observer: NSObject, forKeyPath keyPath: String) {
        KeyValueStringForm.remove(observer, keyPath, context: nil, anyContext: true,
                                  from: DeviceClassProperties.shared, description: "<AVCaptureDevice>")
    }
}
