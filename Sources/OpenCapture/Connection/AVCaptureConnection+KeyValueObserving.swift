import Foundation

/// Key-value observation of a connection. Every change comes from a setter and notifies on
/// the setting thread before the setter returns.
extension AVCaptureConnection: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { connectionKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureConnection.self))

    /// Every observable key of a connection, with Apple's key string.
    static func observableKeys<Root: AVCaptureConnection>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.isEnabled, "enabled"),
            ObservableKey(\Root.isActive, "active"),
            ObservableKey(\Root.videoRotationAngle, "videoRotationAngle"),
            ObservableKey(\Root.videoOrientation, "videoOrientation"),
            ObservableKey(\Root.isVideoMirrored, "videoMirrored"),
            ObservableKey(\Root.automaticallyAdjustsVideoMirroring, "automaticallyAdjustsVideoMirroring"),
            ObservableKey(\Root.activeVideoStabilizationMode, "activeVideoStabilizationMode"),
        ]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureConnection {
    /// Observes a connection property (Apple's `observe(_:options:changeHandler:)`). The
    /// observation ends when the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureConnection.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}
