import Foundation

/// Delivers the microphone's audio to a delegate as `CMSampleBuffer`s of linear PCM
/// (the simulated microphone: 48 kHz mono 16-bit signed integer, 1024 frames a buffer).
///
/// Threads: the delegate is called on `sampleBufferCallbackQueue`, in order (use a serial
/// queue). Buffers are not dropped: each is queued with `async` on that queue (about 47 a
/// second, one block and one sample buffer each). Once `stopRunning()` returns no buffer
/// not yet started reaches the delegate.
///
/// `audioSettings` is macOS-only on Apple platforms and absent here, as on iOS.
open class AVCaptureAudioDataOutput: AVCaptureOutput, @unchecked Sendable {
    private let settings = Mutex<Settings>(Settings())
    /// Observers of the output (see `AVCaptureOutput+KeyValueObserving.swift`).
    let audioDataKeyValueObservers = KeyValueObserverRegistry(label: "audioDataOutput")

    private struct Settings {
        weak var delegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)?
        var queue: DispatchQueue?
        /// Bumped at each open and close, so buffers of an ended run are not delivered.
        var run = 0
        var isOpen = false
    }

    public override init() { super.init() }

    override var acceptedMediaTypes: [AVMediaType] { [.audio] }

    /// The delegate, held weakly.
    open var sampleBufferDelegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)? { settings.withLock { $0.delegate } }
    /// The queue the delegate is called on.
    open var sampleBufferCallbackQueue: DispatchQueue? { settings.withLock { $0.queue } }

    /// Sets the delegate and the queue it is called on. A delegate without a queue raises,
    /// as on iOS.
    open func setSampleBufferDelegate(
        _ sampleBufferDelegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)?, queue sampleBufferCallbackQueue: DispatchQueue?
    ) {
        enforce { try setSampleBufferDelegateChecked(sampleBufferDelegate, queue: sampleBufferCallbackQueue) }
    }

    /// The checked form of `setSampleBufferDelegate(_:queue:)` (Linux addition).
    public func setSampleBufferDelegateChecked(
        _ delegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)?, queue: DispatchQueue?
    ) throws(AVCaptureException) {
        if delegate != nil && queue == nil {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureAudioDataOutput", "setSampleBufferDelegate:queue:", "sampleBufferCallbackQueue cannot be NULL"))
        }
        let newDelegate = UncheckedSendable(delegate)
        settings.withLock {
            $0.delegate = newDelegate.value
            $0.queue = queue
        }
    }

    /// Settings for an `AVAssetWriterInput` to write this output's audio to a file of the
    /// type: AAC at the microphone's rate and channel count for QuickTime and MPEG-4 files,
    /// nil for other types or without a microphone connected.
    open func recommendedAudioSettingsForAssetWriter(writingTo outputFileType: AVFileType) -> [String: Any]? {
        guard [.mov, .mp4, .m4a, .m4v].contains(outputFileType),
            let asbd = connection(with: .audio)?.inputPorts.first(where: { $0.mediaType == .audio })?.formatDescription?
                .audioStreamBasicDescription
        else { return nil }
        return [
            AVFormatIDKey: Int(kAudioFormatMPEG4AAC), AVSampleRateKey: asbd.mSampleRate,
            AVNumberOfChannelsKey: Int(asbd.mChannelsPerFrame), AVEncoderBitRatePerChannelKey: 64_000,
            AVEncoderBitRateStrategyKey: AVAudioBitRateStrategy_Variable,
        ]
    }

    // MARK: Delivery

    /// Whether a delegate takes buffers now (the router paces virtual time by it).
    var isDelivering: Bool {
        let synchronized = synchronizerTakeover?.synchronizer != nil
        return settings.withLock { $0.isOpen && (synchronized || ($0.delegate != nil && $0.queue != nil)) }
    }

    func openForRun() {
        settings.withLock {
            $0.run += 1
            $0.isOpen = true
        }
    }

    func close() {
        settings.withLock {
            $0.run += 1
            $0.isOpen = false
        }
    }

    /// Queues a buffer for the delegate; `done` runs once it was handled or skipped.
    /// Called on the microphone's capture thread.
    func enqueue(_ sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection, done: @escaping @Sendable () -> Void) {
        let takeover = synchronizerTakeover
        let (queue, run) = settings.withLock { ($0.isOpen ? takeover?.queue ?? $0.queue : nil, $0.run) }
        guard let queue else {
            done()
            return
        }
        queue.async { [self] in
            defer { done() }
            if let synchronizer = takeover?.synchronizer {
                // A synchronizer took the output over: it gets the buffer instead of the delegate.
                guard settings.withLock({ $0.isOpen && $0.run == run }) else { return }
                synchronizer.receive(
                    AVCaptureSynchronizedSampleBufferData(sampleBuffer: sampleBuffer, droppedReason: nil), span: sampleBuffer.duration, from: self)
                return
            }
            let delegate = settings.withLock { $0.isOpen && $0.run == run ? $0.delegate : nil }
            delegate?.captureOutput(self, didOutput: sampleBuffer, from: connection)
        }
    }
}
