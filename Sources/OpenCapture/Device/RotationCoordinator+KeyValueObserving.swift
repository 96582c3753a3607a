import Foundation

/// Key-value observation of a rotation coordinator: its two angles, which change when the
/// device's `physicalOrientation` is set (on the setting thread, before the setter returns).
extension AVCaptureDevice.RotationCoordinator: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { coordinatorKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureDevice.RotationCoordinator.self))

    /// The coordinator's observable keys, with Apple's key strings.
    static func observableKeys<Root: AVCaptureDevice.RotationCoordinator>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.videoRotationAngleForHorizonLevelCapture, "videoRotationAngleForHorizonLevelCapture"),
            ObservableKey(\Root.videoRotationAngleForHorizonLevelPreview, "videoRotationAngleForHorizonLevelPreview"),
        ]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureDevice.RotationCoordinator {
    /// Observes a coordinator angle (Apple's `observe(_:options:changeHandler:)`). The
    /// observation ends when the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureDevice.RotationCoordinator.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}
