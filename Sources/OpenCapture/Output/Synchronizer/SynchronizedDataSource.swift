import Foundation

/// A data output an `AVCaptureDataOutputSynchronizer` can take over (video, audio,
/// metadata and depth data outputs). The synchronizer asks this protocol, never the
/// concrete class.
protocol SynchronizedDataSource: AVCaptureOutput {
    /// Whether the output delivers data of its own kind now, beside an active connection
    /// (a metadata output with no `metadataObjectTypes` delivers nothing).
    var deliversSynchronizedData: Bool { get }

    /// A synchronizer took the output over, or gave it back: where its data goes changed.
    func synchronizerTakeoverDidChange()
}

extension SynchronizedDataSource {
    var deliversSynchronizedData: Bool { true }
    func synchronizerTakeoverDidChange() {}
}

extension AVCaptureVideoDataOutput: SynchronizedDataSource {
    /// The delivery moves to the synchronizer's queue, or back to the delegate's.
    func synchronizerTakeoverDidChange() {
        try? setSampleBufferDelegateChecked(sampleBufferDelegate, queue: sampleBufferCallbackQueue)
    }
}

extension AVCaptureAudioDataOutput: SynchronizedDataSource {}

extension AVCaptureMetadataOutput: SynchronizedDataSource {
    var deliversSynchronizedData: Bool { !(metadataObjectTypes ?? []).isEmpty }
}

extension AVCaptureDepthDataOutput: SynchronizedDataSource {
    /// No camera here has depth.
    var deliversSynchronizedData: Bool { false }
}
