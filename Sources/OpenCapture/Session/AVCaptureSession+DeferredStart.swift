import Foundation

/// Deferred start (iOS 26): outputs and preview layers whose `isDeferredStartEnabled` is true
/// get no media when `startRunning()` returns; the session starts them afterwards, by
/// itself (`automaticallyRunsDeferredStart`, the default) or when the app calls
/// `runDeferredStartWhenNeeded()`. On Linux the video data outputs and preview layers
/// support it; photo and movie outputs start with the session (`isDeferredStartSupported`
/// is false for them).
///
/// Threads: the automatic run happens on an internal queue after `startRunning()` returns;
/// the delegate is called on its own queue, never with a session lock held.
extension AVCaptureSession {
    var isManualDeferredStartSupportedBacking: Bool { true }

    var automaticallyRunsDeferredStartBacking: Bool {
        get { model.withLock { $0.automaticallyRunsDeferredStart } }
        set { enforce { try setAutomaticallyRunsDeferredStart(newValue) } }
    }

    /// The checked form of setting `automaticallyRunsDeferredStart` (Linux addition): false
    /// raises where manual deferred start is unsupported, as on iOS.
    public func setAutomaticallyRunsDeferredStart(_ automatic: Bool) throws(AVCaptureException) {
        guard automatic || isManualDeferredStartSupported else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureSession", "setAutomaticallyRunsDeferredStart:", "Manual deferred start is not supported - check isManualDeferredStartSupported"))
        }
        model.withLock { $0.automaticallyRunsDeferredStart = automatic }
    }

    func runDeferredStartWhenNeededBacking() {
        let now = model.withLock { model -> Bool in
            guard model.deferredStart == .pending else {
                if model.deferredStart == .idle { model.deferredStartRequested = true }
                return false
            }
            model.deferredStart = .scheduled
            return true
        }
        if now { Self.deferredStartQueue.async { [self] in runDeferredStart() } }
    }

    var deferredStartDelegateBacking: (any AVCaptureSessionDeferredStartDelegate)? {
        model.withLock { $0.deferredStartDelegate.value }
    }

    var deferredStartDelegateCallbackQueueBacking: DispatchQueue? {
        model.withLock { $0.deferredStartDelegateQueue }
    }

    func setDeferredStartDelegateBacking(
        _ deferredStartDelegate: (any AVCaptureSessionDeferredStartDelegate)?, deferredStartDelegateCallbackQueue: DispatchQueue?
    ) {
        enforce { try setDeferredStartDelegateChecked(deferredStartDelegate, queue: deferredStartDelegateCallbackQueue) }
    }

    /// The checked form of `setDeferredStartDelegate(_:deferredStartDelegateCallbackQueue:)` (Linux addition).
    public func setDeferredStartDelegateChecked(
        _ delegate: (any AVCaptureSessionDeferredStartDelegate)?, queue: DispatchQueue?
    ) throws(AVCaptureException) {
        if delegate != nil && queue == nil {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureSession", "setDeferredStartDelegate:deferredStartDelegateCallbackQueue:",
                "deferredStartDelegateCallbackQueue cannot be NULL"))
        }
        let boxed = UncheckedSendable(delegate)
        model.withLock { model in
            model.deferredStartDelegate = WeakDeferredStartDelegate(value: boxed.value)
            model.deferredStartDelegateQueue = boxed.value == nil ? nil : queue
        }
    }

    // MARK: Internals

    /// Where deferred start runs (off the thread that started the session).
    static let deferredStartQueue = DispatchQueue(label: "OpenCapture.AVCaptureSession.deferredStart")

    /// Where a run of the session stands with deferred start.
    enum DeferredStartState: Sendable {
        /// Not running, or deferred start has run.
        case idle
        /// Running; deferred outputs wait.
        case pending
        /// Running; deferred start is queued.
        case scheduled
    }

    /// Whether a connection waits for deferred start now. Called under the configuration lock.
    func waitsForDeferredStart(_ connection: AVCaptureConnection) -> Bool {
        guard model.withLock({ $0.deferredStart != .idle }) else { return false }
        if let output = connection.output { return output.isDeferredStartEnabled }
        return connection.videoPreviewLayer?.isDeferredStartEnabled ?? false
    }

    /// At `startRunning()`, under the configuration lock: deferred outputs are held back, and
    /// deferred start is queued when it runs by itself or was asked for.
    func beginDeferredStart() {
        let deferring = connections.contains { connection in
            if let output = connection.output { return output.isDeferredStartEnabled }
            return connection.videoPreviewLayer?.isDeferredStartEnabled ?? false
        }
        let schedule = model.withLock { model -> Bool in
            let now = model.automaticallyRunsDeferredStart || model.deferredStartRequested
            // Nothing deferred and nobody to tell: deferred start has nothing to do.
            if now && !deferring && model.deferredStartDelegate.value == nil {
                model.deferredStartRequested = false
                model.deferredStart = .idle
                return false
            }
            model.deferredStartRequested = false
            model.deferredStart = now ? .scheduled : .pending
            return now
        }
        if schedule { Self.deferredStartQueue.async { [self] in runDeferredStart() } }
    }

    /// At `stopRunning()`: a later start defers again.
    func endDeferredStart() { model.withLock { $0.deferredStart = .idle } }

    /// Tells the delegate, starts the held-back outputs, tells the delegate again.
    private func runDeferredStart() {
        guard model.withLock({ $0.deferredStart == .scheduled }) else { return }  // stopped meanwhile
        let (delegate, queue) = model.withLock { (UncheckedSendable($0.deferredStartDelegate.value), $0.deferredStartDelegateQueue) }
        let session = UncheckedSendable(self)
        if let queue, delegate.value != nil {
            queue.async { delegate.value?.sessionWillRunDeferredStart(session.value) }
        }
        configurationLock.lock()
        let deferring = connections.contains { waitsForDeferredStart($0) }
        let ran = model.withLock { model -> Bool in
            guard model.deferredStart == .scheduled else { return false }
            model.deferredStart = .idle
            return true
        }
        if ran && isRunning && deferring { applyConfiguration() }
        configurationLock.unlock()
        if ran, let queue, delegate.value != nil {
            queue.async { delegate.value?.sessionDidRunDeferredStart(session.value) }
        }
    }
}
