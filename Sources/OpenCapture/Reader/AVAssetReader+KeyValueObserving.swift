import Foundation

/// Key-value observation of the asset reader: `status` and `error`, announced when the
/// status changes, on the thread that changes it: `startReading()` (`.reading`, then
/// `.failed` when the file cannot be read) and `cancelReading()` on the caller's thread;
/// `.completed` and `.failed` found while reading on the thread calling an output's
/// `copyNextSampleBuffer()`. Never with a lock held.
extension AVAssetReader: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { readerKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVAssetReader.self))

    /// Every observable key of a reader, with Apple's key string.
    static func observableKeys<Root: AVAssetReader>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.status, "status"),
            ObservableKey(\Root.error, "error", same: sameError),
        ]
    }

    /// Runs `body`, which may change the status, and announces what changed on this thread.
    func changingStatus<R>(_ body: () -> R) -> R { watchingValues("status", "error", body: body) }
}

extension _KeyValueCodingAndObserving where Self: AVAssetReader {
    /// Observes a reader property (Apple's `observe(_:options:changeHandler:)`). The
    /// observation ends when the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVAssetReader.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}
