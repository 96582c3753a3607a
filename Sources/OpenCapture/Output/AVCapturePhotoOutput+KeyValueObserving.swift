import Foundation

/// Key-value observation of a photo output: `captureReadiness` (threads: see that
/// property), `isFlashScene` (camera-driven: on the device's change queue, as other
/// camera-driven changes), `photoSettingsForSceneMonitoring`, `preparedPhotoSettingsArray`
/// and the zero-shutter-lag, responsive and fast-capture switches and their `…Supported`
/// (on the setting thread).
extension AVCapturePhotoOutput: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { photoKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCapturePhotoOutput.self))

    /// Every observable key of a photo output, with Apple's key string.
    static func observableKeys<Root: AVCapturePhotoOutput>(_: Root.Type) -> [ObservableKey<Root>] {
        outputKeys(Root.self) + [
            ObservableKey(\Root.captureReadiness, "captureReadiness"),
            ObservableKey(\Root.isFlashScene, "isFlashScene"),
            ObservableKey(\Root.isStillImageStabilizationScene, "isStillImageStabilizationScene"),
            ObservableKey(\Root.photoSettingsForSceneMonitoring, "photoSettingsForSceneMonitoring") { $0 === $1 },
            ObservableKey(\Root.preparedPhotoSettingsArray, "preparedPhotoSettingsArray") { $0.elementsEqual($1, by: ===) },
            ObservableKey(\Root.isZeroShutterLagEnabled, "isZeroShutterLagEnabled"),
            ObservableKey(\Root.isResponsiveCaptureSupported, "isResponsiveCaptureSupported"),
            ObservableKey(\Root.isResponsiveCaptureEnabled, "isResponsiveCaptureEnabled"),
            ObservableKey(\Root.isFastCapturePrioritizationSupported, "isFastCapturePrioritizationSupported"),
            ObservableKey(\Root.isFastCapturePrioritizationEnabled, "isFastCapturePrioritizationEnabled"),
        ]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCapturePhotoOutput {
    /// Observes a photo-output property (Apple's `observe(_:options:changeHandler:)`). The
    /// observation ends when the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCapturePhotoOutput.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}

/// Key-value observation of a readiness coordinator's `captureReadiness`, told on the
/// photo output's callback queue.
extension AVCapturePhotoOutputReadinessCoordinator: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { coordinatorKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCapturePhotoOutputReadinessCoordinator.self))

    static func observableKeys<Root: AVCapturePhotoOutputReadinessCoordinator>(_: Root.Type) -> [ObservableKey<Root>] {
        [ObservableKey(\Root.captureReadiness, "captureReadiness")]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCapturePhotoOutputReadinessCoordinator {
    /// Observes the coordinator's `captureReadiness`.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCapturePhotoOutputReadinessCoordinator.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}
