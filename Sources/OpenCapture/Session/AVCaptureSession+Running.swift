import Foundation

/// Running: `startRunning()` and `stopRunning()`, the reconfiguration of a running session,
/// and device failures. The session's `SessionRunner` owns the run (its state, epoch and
/// streams, on its serial queue); these entry points hold the configuration lock around the
/// runner's job only so that the graph stays as the job read it and the session's observed
/// keys (`isRunning`) are announced once the lock is let go, with the delegate calls the job
/// left to wait out.
extension AVCaptureSession {
    /// The checked form of `startRunning()` (Linux addition): throws for misuse; device
    /// failures still arrive as `runtimeErrorNotification`.
    public func startRunningChecked() throws(AVCaptureException) {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        try requireNoTransaction("startRunning")
        guard !isRunning else { return }
        model.withLock { $0.needsApply = false }
        configureWideColor()
        let started = onRunner { run in
            run.start(self) {
                // The inboxes open once `isRunning` is true, so a delegate set meanwhile opens its own.
                for consumer in consumers { consumer.openInbox() }
                beginDeferredStart()
            }
        }
        if started {
            settleOutputs()
            postOnMainQueue(Self.didStartRunningNotification, object: self)
        }
        for consumer in consumers { consumer.sessionDidStart(releasing: configurationLock) }
    }

    /// The outputs as the routers see them.
    var consumers: [any RouteConsumer] { outputs.compactMap(\.consumer) }

    /// The checked form of `stopRunning()` (Linux addition).
    public func stopRunningChecked() throws(AVCaptureException) {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        try requireNoTransaction("stopRunning")
        guard isRunning else { return }
        endDeferredStart()
        onRunner { $0.stop(self) }
        interruptions.reset()  // stopping ends any interruption, retiring its watcher
        for consumer in consumers { consumer.sessionDidStop(releasing: configurationLock) }
        postOnMainQueue(Self.didStopRunningNotification, object: self)
    }

    /// Runs a job on the runner, and queues the delegate calls it left to wait out for when
    /// the configuration lock is let go. Called with the configuration lock held.
    @discardableResult
    func onRunner<Result>(_ job: (SessionRun) -> Result) -> Result {
        let (result, waits) = runner.perform(job)
        for wait in waits { configurationLock.afterUnlock(wait) }
        return result
    }

    /// Lets the outputs do what waited for the session to run with no transaction open (a
    /// photo output's `setPreparedPhotoSettingsArray`). Called with the configuration lock held.
    func settleOutputs() {
        guard isRunning, !isConfiguring else { return }
        for consumer in consumers { consumer.sessionDidSettle() }
    }

    /// Starting and stopping inside a configuration transaction raise, as on iOS.
    private func requireNoTransaction(_ selector: String) throws(AVCaptureException) {
        guard !isConfiguring else {
            throw AVCaptureException(
                .generic,
                selectorReason("AVCaptureSession", selector,
                    "\(selector) may not be called between calls to beginConfiguration and commitConfiguration"))
        }
    }

    /// Brings the devices in line with the graph: their colour space, and, while running,
    /// the streams. Called with the configuration lock held.
    func applyConfiguration() {
        model.withLock { $0.needsApply = false }
        configureWideColor()
        onRunner { $0.apply(self) }
    }

    /// Automatic wide colour: P3 for a photo-only session whose camera offers it.
    private func configureWideColor() {
        guard automaticallyConfiguresCaptureDeviceForWideColor else { return }
        for input in deviceInputs { input.device.configureWideColor(for: self) }
    }

    /// The pixel format a device should render: the one its converting consumers (video
    /// data outputs) share; with none, 'x420' on a 10-bit active format (so movies record
    /// every bit) and 420v otherwise. When they differ: a 10-bit one if any asks for one (the
    /// others are converted from it, and no 10-bit output gets samples widened from 8
    /// bits), else 420v.
    static func renderFormat(for connections: [AVCaptureConnection], tenBitFormat: Bool = false) -> PixelFormat {
        let formats = Set(connections.compactMap { connection -> PixelFormat? in
            guard case .converted(let conversion)? = connection.consumer?.frameForm(for: connection) else { return nil }
            return conversion.format
        })
        if formats.isEmpty && tenBitFormat { return .yuv420TenBitBiPlanarVideoRange }
        if formats.count == 1 { return formats.first! }
        return formats.filter(\.isTenBit).min { $0.rawValue < $1.rawValue } ?? .yuv420BiPlanarVideoRange
    }

    /// A device failed while running: tell the app and stop that device's stream.
    func reportRuntimeError(_ error: BackendError, device: AVCaptureDevice) {
        let avError: AVError
        switch error {
        case .deviceWasDisconnected:
            avError = AVError(.deviceWasDisconnected, "\(device.localizedName) was disconnected.", userInfo: [AVErrorDeviceKey: device])
        case .deviceInUse:
            avError = AVError(.deviceInUseByAnotherApplication, "\(device.localizedName) is in use by another application.")
        case .notAuthorized(let why):
            avError = AVError(.applicationIsNotAuthorizedToUseDevice, why)
        case .streamFailed(let why):
            avError = AVError(.unknown, "\(device.localizedName) stopped streaming: \(why)")
        }
        postOnMainQueue(Self.runtimeErrorNotification, object: self, userInfo: [AVCaptureSessionErrorKey: avError])
    }

    /// Where a device's mid-stream failure is handled (off the capture thread, which the
    /// stop waits for). A serial queue of its own, not `DispatchQueue.global()`: on Linux the
    /// global queue's threads are capped at the core count and are not replaced while they
    /// block, so in a one-core VM the failure waited seconds (past 20 s once) for a thread.
    static let faultQueue = DispatchQueue(label: "OpenCapture.AVCaptureSession.faults")

    /// Called from a router when its camera failed mid-stream.
    func streamDidFail(_ router: FrameRouter, error: BackendError) {
        Self.faultQueue.async { [self] in
            configurationLock.lock()
            defer { configurationLock.unlock() }
            if onRunner({ $0.cameraDidFail(router, error: error, self) }) {
                postOnMainQueue(Self.didStopRunningNotification, object: self)
            }
        }
    }

    /// Called from an audio router when its microphone failed mid-stream.
    func audioStreamDidFail(_ router: AudioRouter, error: BackendError) {
        Self.faultQueue.async { [self] in
            configurationLock.lock()
            defer { configurationLock.unlock() }
            onRunner { $0.microphoneDidFail(router, error: error, self) }
        }
    }
}
