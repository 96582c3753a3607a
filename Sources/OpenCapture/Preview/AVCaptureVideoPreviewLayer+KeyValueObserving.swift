import Foundation

/// Key-value observation of a preview layer: `session`, `connection`, `videoGravity` and
/// `isPreviewing`. Setting `session` (or `setSessionWithNoConnection(_:)`) notifies on the
/// setting thread before it returns; the layer being connected when the session gets a
/// camera, and `isPreviewing` following `startRunning()`/`stopRunning()`, notify on the
/// thread that changed the session, once it lets go of the session's configuration lock.
extension AVCaptureVideoPreviewLayer: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { layerKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureVideoPreviewLayer.self))

    /// Every observable key of a preview layer, with Apple's key string.
    static func observableKeys<Root: AVCaptureVideoPreviewLayer>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.session, "session") { $0 === $1 },
            ObservableKey(\Root.connection, "connection") { $0 === $1 },
            ObservableKey(\Root.videoGravity, "videoGravity"),
            ObservableKey(\Root.isPreviewing, "previewing"),
        ]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureVideoPreviewLayer {
    /// Observes a preview-layer property (Apple's `observe(_:options:changeHandler:)`). The
    /// observation ends when the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureVideoPreviewLayer.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}
