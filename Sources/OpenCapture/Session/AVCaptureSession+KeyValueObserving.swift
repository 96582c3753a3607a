import Foundation

/// Key-value observation of a session.
///
/// Every change of an observed key is announced by the thread that made it, once it has
/// let go of the configuration lock: `startRunning()`/`stopRunning()` and configuration
/// calls notify on the caller's thread before they return; a stop after a device failure
/// or unplugging on the private queue "OpenCapture.AVCaptureSession.faults"; an
/// interruption by system pressure, and its end, on the private queue
/// "OpenCapture.session.interruption". Keys are compared before and after each outermost
/// hold of the configuration lock, so only real changes notify.
extension AVCaptureSession: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { sessionKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureSession.self))

    /// Every observable key of a session, with Apple's key string.
    static func observableKeys<Root: AVCaptureSession>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.isRunning, "running"),
            ObservableKey(\Root.isInterrupted, "interrupted"),
            ObservableKey(\Root.sessionPreset, "sessionPreset"),
            ObservableKey(\Root.inputs, "inputs") { $0.elementsEqual($1, by: ===) },
            ObservableKey(\Root.outputs, "outputs") { $0.elementsEqual($1, by: ===) },
            ObservableKey(\Root.connections, "connections") { $0.elementsEqual($1, by: ===) },
            ObservableKey(\Root.hardwareCost, "hardwareCost"),
        ]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureSession {
    /// Observes a session property (Apple's `observe(_:options:changeHandler:)`):
    /// `isRunning`, `isInterrupted`, `sessionPreset`, `inputs`, `outputs`, `connections`,
    /// `hardwareCost`. The observation ends when the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureSession.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}
