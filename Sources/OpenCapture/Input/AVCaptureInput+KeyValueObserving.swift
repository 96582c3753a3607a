import Foundation

/// Key-value observation of inputs: a device input's switches
/// (`unifiedAutoExposureDefaultsEnabled`, `videoMinFrameDurationOverride`,
/// `multichannelAudioMode`, `isWindNoiseRemovalEnabled`, `isCinematicVideoCaptureEnabled`,
/// `isAudioZoomEnabled`) and any input's `ports`. Every change comes from a setter and
/// notifies on the setting thread before the setter returns (a set that raises notifies
/// only the prior observers), except `videoMinFrameDurationOverride`'s reset to `.invalid`
/// when the input joins a session (`addInput`), announced when the value changed by the
/// thread that added it, once it lets go of the session's configuration lock. Other key
/// paths follow the announced ones (`DerivedValue`).
extension AVCaptureInput: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { inputKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable {
        self is AVCaptureDeviceInput ? Self.deviceInputTable : Self.inputTable
    }

    private static let inputTable = ObservableKeyTable(observableKeys(AVCaptureInput.self))
    private static let deviceInputTable = ObservableKeyTable(AVCaptureDeviceInput.observableKeys(AVCaptureDeviceInput.self))

    /// The observable keys of every input, with Apple's key string.
    static func observableKeys<Root: AVCaptureInput>(_: Root.Type) -> [ObservableKey<Root>] {
        [ObservableKey(\Root.ports, "ports") { $0.elementsEqual($1, by: ===) }]
    }
}

extension AVCaptureDeviceInput {
    /// The observable keys of a device input, with Apple's key string.
    static func observableKeys<Root: AVCaptureDeviceInput>(_: Root.Type) -> [ObservableKey<Root>] {
        AVCaptureInput.observableKeys(Root.self) + [
            ObservableKey(\Root.unifiedAutoExposureDefaultsEnabled, "unifiedAutoExposureDefaultsEnabled"),
            ObservableKey(\Root.videoMinFrameDurationOverride, "videoMinFrameDurationOverride"),
            ObservableKey(\Root.multichannelAudioMode, "multichannelAudioMode"),
            ObservableKey(\Root.isWindNoiseRemovalEnabled, "windNoiseRemovalEnabled"),
            ObservableKey(\Root.isCinematicVideoCaptureEnabled, "cinematicVideoCaptureEnabled"),
            ObservableKey(\Root.simulatedAperture, "simulatedAperture"),
            ObservableKey(\Root.isAudioZoomEnabled, "audioZoomEnabled"),
        ]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureInput {
    /// Observes an input property (Apple's `observe(_:options:changeHandler:)`). The
    /// observation ends when the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureInput.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureDeviceInput {
    /// Observes a device-input property (Apple's `observe(_:options:changeHandler:)`).
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureDeviceInput.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}

/// Key-value observation of an input port's `isEnabled` ("enabled"), on the setting thread
/// before the setter returns. `formatDescription` changes are posted as
/// `formatDescriptionDidChangeNotification`, as on iOS.
extension AVCaptureInput.Port: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { portKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureInput.Port.self))

    /// The observable keys of a port, with Apple's key string.
    static func observableKeys<Root: AVCaptureInput.Port>(_: Root.Type) -> [ObservableKey<Root>] {
        [ObservableKey(\Root.isEnabled, "enabled")]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureInput.Port {
    /// Observes a port property (Apple's `observe(_:options:changeHandler:)`).
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureInput.Port.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}
