import Foundation

/// `AVCaptureDevice`'s observable class properties, held by one object so that class-level
/// observation uses the same machinery as instances
/// (`AVCaptureDevice.self.observe(\.systemPreferredCamera, ...)`): `systemPreferredCamera`,
/// `userPreferredCamera`, `centerStageControlMode`, `isCenterStageEnabled`
/// ("centerStageEnabled"), `isPortraitEffectEnabled` ("portraitEffectEnabled"),
/// `reactionEffectsEnabled`, `reactionEffectGesturesEnabled`, `preferredMicrophoneMode` and
/// `activeMicrophoneMode`.
///
/// Threads: setting `userPreferredCamera`, `centerStageControlMode` or `isCenterStageEnabled`
/// notifies on the setting thread before the setter returns (every set, as Apple's
/// automatic notification); a camera coming or going notifies on the serial queue
/// "OpenCapture.kvo.AVCaptureDevice". The Control Center effects and microphone modes are
/// the user's switches on iOS, which Linux does not have: they never change, so they never
/// notify (only `.initial`).
final class DeviceClassProperties: KeyValueObservableObject, @unchecked Sendable {
    static let shared = DeviceClassProperties()

    let keyValueObservers = KeyValueObserverRegistry(label: "AVCaptureDevice")
    var observableKeyTable: ObservableKeyTable { Self.keyTable }
    private static let keyTable = ObservableKeyTable(keys())

    static func keys() -> [ObservableKey<DeviceClassProperties>] {
        [
            ObservableKey(\DeviceClassProperties.systemPreferredCamera, "systemPreferredCamera"),
            ObservableKey(\DeviceClassProperties.userPreferredCamera, "userPreferredCamera"),
            ObservableKey(\DeviceClassProperties.centerStageControlMode, "centerStageControlMode"),
            ObservableKey(\DeviceClassProperties.isCenterStageEnabled, "centerStageEnabled"),
            ObservableKey(\DeviceClassProperties.isPortraitEffectEnabled, "portraitEffectEnabled"),
            ObservableKey(\DeviceClassProperties.reactionEffectsEnabled, "reactionEffectsEnabled"),
            ObservableKey(\DeviceClassProperties.reactionEffectGesturesEnabled, "reactionEffectGesturesEnabled"),
            ObservableKey(\DeviceClassProperties.preferredMicrophoneMode, "preferredMicrophoneMode"),
            ObservableKey(\DeviceClassProperties.activeMicrophoneMode, "activeMicrophoneMode"),
        ]
    }

    var systemPreferredCamera: AVCaptureDevice? { AVCaptureDevice.systemPreferredCamera }
    var userPreferredCamera: AVCaptureDevice? { AVCaptureDevice.userPreferredCamera }
    var centerStageControlMode: AVCaptureDevice.CenterStageControlMode { AVCaptureDevice.centerStageControlMode }
    var isCenterStageEnabled: Bool { AVCaptureDevice.isCenterStageEnabled }
    var isPortraitEffectEnabled: Bool { AVCaptureDevice.isPortraitEffectEnabled }
    var reactionEffectsEnabled: Bool { AVCaptureDevice.reactionEffectsEnabled }
    var reactionEffectGesturesEnabled: Bool { AVCaptureDevice.reactionEffectGesturesEnabled }
    var preferredMicrophoneMode: AVCaptureDevice.MicrophoneMode { AVCaptureDevice.preferredMicrophoneMode }
    var activeMicrophoneMode: AVCaptureDevice.MicrophoneMode { AVCaptureDevice.activeMicrophoneMode }

    /// The class key paths an app observes, and this holder's key paths for them.
    static func holderKeyPath<Value>(for keyPath: KeyPath<AVCaptureDevice.Type, Value>) -> KeyPath<DeviceClassProperties, Value>? {
        let pairs: [(AnyKeyPath, AnyKeyPath)] = [
            (\AVCaptureDevice.Type.systemPreferredCamera, \DeviceClassProperties.systemPreferredCamera),
            (\AVCaptureDevice.Type.userPreferredCamera, \DeviceClassProperties.userPreferredCamera),
            (\AVCaptureDevice.Type.centerStageControlMode, \DeviceClassProperties.centerStageControlMode),
            (\AVCaptureDevice.Type.isCenterStageEnabled, \DeviceClassProperties.isCenterStageEnabled),
            (\AVCaptureDevice.Type.isPortraitEffectEnabled, \DeviceClassProperties.isPortraitEffectEnabled),
            (\AVCaptureDevice.Type.reactionEffectsEnabled, \DeviceClassProperties.reactionEffectsEnabled),
            (\AVCaptureDevice.Type.reactionEffectGesturesEnabled, \DeviceClassProperties.reactionEffectGesturesEnabled),
            (\AVCaptureDevice.Type.preferredMicrophoneMode, \DeviceClassProperties.preferredMicrophoneMode),
            (\AVCaptureDevice.Type.activeMicrophoneMode, \DeviceClassProperties.activeMicrophoneMode),
        ]
        return pairs.first { $0.0 == keyPath }?.1 as? KeyPath<DeviceClassProperties, Value>
    }

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
        DiscoverySessions.shared.devicesChanged()
        let before = last.withLock { $0 }
        remember()
        KeyValueChange.didChange(self, key: "systemPreferredCamera", from: before.system, on: keyValueObservers.changeQueue)
        KeyValueChange.didChange(self, key: "userPreferredCamera", from: before.user, on: keyValueObservers.changeQueue)
    }
}

extension AVCaptureDevice {
    /// Observes a class property listed in `DeviceClassProperties` (Apple's
    /// `AVCaptureDevice.self.observe(\.systemPreferredCamera, options:changeHandler:)`). Other
    /// class key paths are constants on Linux and get only the `.initial` call. Ends when
    /// the result is invalidated or released.
    public class func observe<Value>(
        _ keyPath: KeyPath<AVCaptureDevice.Type, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (AVCaptureDevice.Type, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let holder = DeviceClassProperties.shared
        guard let mapped = DeviceClassProperties.holderKeyPath(for: keyPath) else {
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
    /// Keys: those of `DeviceClassProperties` (others are accepted and never fire). The observer is told `of: AVCaptureDevice.self`, on the threads listed for
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
