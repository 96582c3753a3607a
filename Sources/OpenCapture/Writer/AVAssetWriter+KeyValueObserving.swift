import Foundation

/// Key-value observation of the asset writer and its inputs.
///
/// - `AVAssetWriter`: `status` and `error`, announced when the status changes, on the
///   thread that changes it: `startWriting()` (`.writing`, or `.failed` with its error) and
///   `cancelWriting()` (`.cancelled`) on the caller's thread; `.completed` by
///   `finishWriting` and `.failed` by an encoding or muxing failure on the writer's queue
///   ("OpenCapture.AVAssetWriter"), before the completion handler runs.
/// - `AVAssetWriterInput`: `isReadyForMoreMediaData` ("readyForMoreMediaData"), which Apple
///   documents as observable, announced at every change: an append that fills the queue
///   (appending thread), an encoded buffer that makes room (writer's queue),
///   `markAsFinished()` and `expectsMediaDataInRealTime` (caller), and the writer's status
///   changes above (with the writer's, after it). Appends and encodes race, so two quick
///   flips may be announced as one change or not at all; the last announcement's new
///   value is the value when it was made.
///
/// Nothing is announced with a lock held; with nobody observing, each buffer pays one
/// atomic load per change point.
extension AVAssetWriter: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { writerKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVAssetWriter.self))

    /// Every observable key of a writer, with Apple's key string.
    static func observableKeys<Root: AVAssetWriter>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.status, "status"),
            ObservableKey(\Root.error, "error", same: sameError),
        ]
    }
}

extension _KeyValueCodingAndObserving where Self: AVAssetWriter {
    /// Observes a writer property (Apple's `observe(_:options:changeHandler:)`). The
    /// observation ends when the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVAssetWriter.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}

extension AVAssetWriterInput: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { inputKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVAssetWriterInput.self))

    /// Every observable key of a writer input, with Apple's key string.
    static func observableKeys<Root: AVAssetWriterInput>(_: Root.Type) -> [ObservableKey<Root>] {
        [ObservableKey(\Root.isReadyForMoreMediaData, "readyForMoreMediaData")]
    }
}

extension _KeyValueCodingAndObserving where Self: AVAssetWriterInput {
    /// Observes a writer-input property (Apple's `observe(_:options:changeHandler:)`), such
    /// as `\.isReadyForMoreMediaData`.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVAssetWriterInput.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}

/// Whether two readings of an `error` property are the same error: both nil, or the same
/// description (an error is set once, so a new one always reads differently from nil).
func sameError(_ a: (any Error)?, _ b: (any Error)?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case let (a?, b?): String(reflecting: a) == String(reflecting: b)
    default: false
    }
}
