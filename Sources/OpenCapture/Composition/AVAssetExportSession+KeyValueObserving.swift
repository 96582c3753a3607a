import Foundation

/// Key-value observation of an export session: `status` and `error`, announced when the
/// status changes, on the thread that changes it: `.waiting` by
/// `exportAsynchronously(completionHandler:)` and `.cancelled` by `cancelExport()` before
/// the export starts, on the caller's thread; `.exporting`, `.completed`, `.failed` and a
/// cancellation seen while exporting on the session's queue
/// ("OpenCapture.AVAssetExportSession"), before the completion handler. Never with a
/// lock held. `progress` is not announced: Apple's header says it is not key-value
/// observable (poll it).
extension AVAssetExportSession: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { exportKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVAssetExportSession.self))

    /// Every observable key of an export session, with Apple's key string.
    static func observableKeys<Root: AVAssetExportSession>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.status, "status"),
            ObservableKey(\Root.error, "error", same: sameError),
        ]
    }

    /// Runs `body`, which may change the status, and announces what changed on this thread.
    func changingStatus<R>(_ body: () -> R) -> R { watchingValues("status", "error", body: body) }
}

extension _KeyValueCodingAndObserving where Self: AVAssetExportSession {
    /// Observes an export session property (Apple's `observe(_:options:changeHandler:)`).
    /// The observation ends when the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVAssetExportSession.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}
