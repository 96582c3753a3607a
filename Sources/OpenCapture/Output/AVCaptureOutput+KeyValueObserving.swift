import Foundation

/// Key-value observation of the data, metadata, depth and file outputs (the photo and
/// still image outputs have their own files).
///
/// Listed keys, all changed by setters, notify on the setting thread before the setter
/// returns (a set that raises notifies only the prior observers):
/// - every output: `isDeferredStartEnabled` ("deferredStartEnabled");
/// - video data: `videoSettings`, `alwaysDiscardsLateVideoFrames`,
///   `automaticallyConfiguresOutputBufferDimensions`, `deliversPreviewSizedOutputBuffers`;
/// - metadata: `metadataObjectTypes`, `rectOfInterest`;
/// - depth data: `alwaysDiscardsLateDepthData`, `isFilteringEnabled` ("filteringEnabled");
/// - file (movie) outputs: `maxRecordedDuration`, `maxRecordedFileSize`, `minFreeDiskSpaceLimit`.
///
/// A movie file output's `isRecording` ("recording"), `isRecordingPaused`
/// ("recordingPaused") and `outputFileURL` change with the recording (`MovieRecorder`):
/// `startRecording`, `pauseRecording` and `resumeRecording` announce on the calling
/// thread before returning; the end of a recording (`stopRecording`, a limit, a failure,
/// the session stopping) announces `recording` false on the output's recording queue
/// ("OpenCapture.movie") before the delegate's `didFinishRecordingTo`. (iOS changes them
/// on the session's internal queue, so an observer there too must not assume the main
/// thread.) `outputFileURL` keeps the last file's URL after the recording ends.
///
/// Apple documents `recordedDuration` and `recordedFileSize` as values to poll, and the
/// delegates and callback queues as set through methods; those, and any other key path,
/// follow the announced changes (see `DerivedValue`): read again after every announced
/// change of the same output, notifying when different.
extension AVCaptureOutput {
    /// The keys every output has, with Apple's key string.
    static func outputKeys<Root: AVCaptureOutput>(_: Root.Type) -> [ObservableKey<Root>] {
        [ObservableKey(\Root.isDeferredStartEnabled, "deferredStartEnabled")]
    }
}

extension AVCaptureVideoDataOutput: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { videoDataKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureVideoDataOutput.self))

    /// Every observable key of a video data output, with Apple's key string.
    static func observableKeys<Root: AVCaptureVideoDataOutput>(_: Root.Type) -> [ObservableKey<Root>] {
        outputKeys(Root.self) + [
            ObservableKey(\Root.videoSettings, "videoSettings") { a, b in
                switch (a, b) {
                case (nil, nil): true
                case let (a?, b?): NSDictionary(dictionary: a).isEqual(to: b)
                default: false
                }
            },
            ObservableKey(\Root.alwaysDiscardsLateVideoFrames, "alwaysDiscardsLateVideoFrames"),
            ObservableKey(\Root.automaticallyConfiguresOutputBufferDimensions, "automaticallyConfiguresOutputBufferDimensions"),
            ObservableKey(\Root.deliversPreviewSizedOutputBuffers, "deliversPreviewSizedOutputBuffers"),
        ]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureVideoDataOutput {
    /// Observes a video-data-output property (Apple's `observe(_:options:changeHandler:)`).
    /// The observation ends when the returned object is invalidated or released.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureVideoDataOutput.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}

extension AVCaptureAudioDataOutput: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { audioDataKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureAudioDataOutput.self))

    /// Every observable key of an audio data output, with Apple's key string.
    static func observableKeys<Root: AVCaptureAudioDataOutput>(_: Root.Type) -> [ObservableKey<Root>] {
        outputKeys(Root.self)
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureAudioDataOutput {
    /// Observes an audio-data-output property (Apple's `observe(_:options:changeHandler:)`).
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureAudioDataOutput.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}

extension AVCaptureMetadataOutput: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { metadataKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureMetadataOutput.self))

    /// Every observable key of a metadata output, with Apple's key string.
    static func observableKeys<Root: AVCaptureMetadataOutput>(_: Root.Type) -> [ObservableKey<Root>] {
        outputKeys(Root.self) + [
            ObservableKey(\Root.metadataObjectTypes, "metadataObjectTypes"),
            ObservableKey(\Root.rectOfInterest, "rectOfInterest"),
        ]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureMetadataOutput {
    /// Observes a metadata-output property (Apple's `observe(_:options:changeHandler:)`).
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureMetadataOutput.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}

extension AVCaptureDepthDataOutput: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { depthKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureDepthDataOutput.self))

    /// Every observable key of a depth data output, with Apple's key string.
    static func observableKeys<Root: AVCaptureDepthDataOutput>(_: Root.Type) -> [ObservableKey<Root>] {
        outputKeys(Root.self) + [
            ObservableKey(\Root.alwaysDiscardsLateDepthData, "alwaysDiscardsLateDepthData"),
            ObservableKey(\Root.isFilteringEnabled, "filteringEnabled"),
        ]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureDepthDataOutput {
    /// Observes a depth-data-output property (Apple's `observe(_:options:changeHandler:)`).
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureDepthDataOutput.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}

extension AVCaptureFileOutput: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { fileKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureFileOutput.self))

    /// Every observable key of a file output (a movie file output too), with Apple's key string.
    static func observableKeys<Root: AVCaptureFileOutput>(_: Root.Type) -> [ObservableKey<Root>] {
        outputKeys(Root.self) + [
            ObservableKey(\Root.maxRecordedDuration, "maxRecordedDuration"),
            ObservableKey(\Root.maxRecordedFileSize, "maxRecordedFileSize"),
            ObservableKey(\Root.minFreeDiskSpaceLimit, "minFreeDiskSpaceLimit"),
            ObservableKey(\Root.isRecording, "recording"),
            ObservableKey(\Root.isRecordingPaused, "recordingPaused"),
            ObservableKey(\Root.outputFileURL, "outputFileURL"),
        ]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureFileOutput {
    /// Observes a file-output property, on a movie file output too (Apple's
    /// `observe(_:options:changeHandler:)`).
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureFileOutput.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}
