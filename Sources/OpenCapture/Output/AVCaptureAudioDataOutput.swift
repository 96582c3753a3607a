import Foundation

/// Delivers the microphone's audio to a delegate as `CMSampleBuffer`s of linear PCM
/// (the simulated microphone: 48 kHz mono 16-bit signed integer, 1024 frames a buffer).
///
/// Threads: the delegate is called on `sampleBufferCallbackQueue`, in order (use a serial
/// queue). Buffers are not dropped: each is queued with `async` on that queue (about 47 a
/// second, one block and one sample buffer each). Once `stopRunning()` returns no buffer
/// not yet started reaches the delegate, and none is in progress (unless `stopRunning()`
/// was called from that very delegate call).
///
/// `audioSettings` is macOS-only on Apple platforms and absent here, as on iOS.
open class AVCaptureAudioDataOutput: AVCaptureOutput, @unchecked Sendable {
    /// A condition lock: closing waits on it for a delegate call in progress.
    private let settings = ConditionState(Settings())
    /// Observers of the output (see `AVCaptureOutput+KeyValueObserving.swift`).
    let audioDataKeyValueObservers = KeyValueObserverRegistry(label: "audioDataOutput")

    private struct Settings {
        weak var delegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)?
        var queue: DispatchQueue?
        /// Bumped at each open and close, so buffers of an ended run are not delivered.
        var run = 0
        var isOpen = false
        /// Delegate (or synchronizer) calls begun and ended, and the threads making those in
        /// progress: closing waits for the calls begun before it.
        var callsBegun = 0
        var callsEnded = 0
        var callingThreads: [pthread_t] = []
    }

    /// The calls a close waits out: those begun before it.
    struct CallsInProgress {
        let begunBeforeClose: Int
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

    /// No buffer not yet started reaches the delegate any more; answers the calls in
    /// progress to wait out (`waitForDelegateCalls`), nil for none.
    func close() -> CallsInProgress? {
        settings.withLock { state -> CallsInProgress? in
            state.run += 1
            state.isOpen = false
            return state.callingThreads.isEmpty ? nil : CallsInProgress(begunBeforeClose: state.callsBegun)
        }
    }

    /// Blocks until the delegate calls in progress at `calls`' close have returned, but for one
    /// made on this thread (a delegate stopping its own session). Call with no lock held: it
    /// waits for user code.
    func waitForDelegateCalls(_ calls: CallsInProgress) {
        let me = pthread_self()
        settings.wait(polling: 0.05) { state -> Void? in
            let mine = state.callingThreads.contains { pthread_equal($0, me) != 0 } ? 1 : 0
            return state.callsEnded + mine >= calls.begunBeforeClose ? () : nil
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
            // A synchronizer that took the output over gets the buffer instead of the delegate.
            let synchronizer = takeover?.synchronizer
            // The call begins under the lock that checks the run: a close either stops it or
            // sees it in progress and waits it out.
            let delegate = settings.withLock { state -> (any AVCaptureAudioDataOutputSampleBufferDelegate)?? in
                guard state.isOpen, state.run == run, synchronizer != nil || state.delegate != nil else { return nil }
                state.callsBegun += 1
                state.callingThreads.append(pthread_self())
                return .some(state.delegate)
            }
            guard let delegate else { return }
            defer {
                let me = pthread_self()
                settings.withLock(broadcast: true) { state in
                    state.callsEnded += 1
                    if let index = state.callingThreads.firstIndex(where: { pthread_equal($0, me) != 0 }) { state.callingThreads.remove(at: index) }
                }
            }
            if let synchronizer {
                synchronizer.receive(
                    AVCaptureSynchronizedSampleBufferData(sampleBuffer: sampleBuffer, droppedReason: nil), span: sampleBuffer.duration, from: self)
            } else {
                delegate?.captureOutput(self, didOutput: sampleBuffer, from: connection)
            }
        }
    }
}
