import Foundation
import Synchronization

/// Where a session stands with running, and the device streams it runs: its state machine.
///
/// Thread safety: confined to its `SessionRunner`'s queue. The runner holds the only
/// reference and hands it out only to the jobs it runs there (`SessionRunner.perform`);
/// `isRunning` alone is read from anywhere, through an atomic the state keeps current.
/// A job never takes the session's configuration lock and never waits for user code: a
/// delegate call to wait out goes to `waits` for the caller.
final class SessionRun: @unchecked Sendable {
    /// The run states, as `startRunning()`, `stopRunning()` and failures move between them.
    /// An interruption (system pressure) stops a device, not the run: the session stays
    /// `running` and `InterruptionTracker` says which devices wait to resume.
    enum State: Equatable {
        /// No device streams for the session.
        case stopped
        /// `startRunning()` is starting the devices; `epoch` is the host time (nanoseconds)
        /// they all take as their first instant, so a simulated camera's and microphone's
        /// scripted events (a flash and a clap at the same time) coincide.
        case starting(epoch: Int64)
        /// The devices stream.
        case running
        /// `stopRunning()` or a failure is stopping the devices.
        case stopping

        /// Whether the session counts as running (`isRunning`): from the start of
        /// `startRunning()` until a stop begins, so a stop's `isRunning` turns false before
        /// its streams end (see `AVCaptureDevice.claimStreaming`).
        var isRunning: Bool {
            switch self {
            case .starting, .running: true
            case .stopped, .stopping: false
            }
        }
    }

    /// A device streaming for the session and the router that spreads its frames.
    struct Stream {
        let device: AVCaptureDevice
        let router: FrameRouter
        var configuration: StreamConfiguration
    }

    private let running = Atomic<Bool>(false)
    private(set) var state = State.stopped {
        didSet { running.store(state.isRunning, ordering: .releasing) }
    }
    /// Cameras streaming now, keyed by device core.
    private var streams: [ObjectIdentifier: Stream] = [:]
    /// Microphones streaming now, keyed by device core.
    private var audioStreams: [ObjectIdentifier: AudioRouter] = [:]
    /// Delegate calls in progress that the caller waits out once it let go of its locks.
    private var waits: [() -> Void] = []

    /// Whether the session is starting or running (any thread).
    var isRunning: Bool { running.load(ordering: .acquiring) }

    func takeWaits() -> [() -> Void] {
        defer { waits.removeAll() }
        return waits
    }

    // MARK: Start and stop

    /// Starts the devices: `starting` (the inboxes open in `willStream`), then `running`, or
    /// back to `stopped` if no device could stream. Answers whether the session runs.
    func start(_ session: AVCaptureSession, willStream: () -> Void) -> Bool {
        guard state == .stopped else { return state.isRunning }
        state = .starting(epoch: CMClockGetHostTimeClock().time.value)
        willStream()
        apply(session)
        if state.isRunning { state = .running }
        return state == .running
    }

    /// Stops every device: `stopping`, then `stopped`.
    func stop(_ session: AVCaptureSession) {
        guard state.isRunning else { return }
        stopAll(session)
    }

    /// `stopping`, every stream ended, `stopped`.
    private func stopAll(_ session: AVCaptureSession) {
        state = .stopping
        endAll(session)
        state = .stopped
    }

    /// Closes the inboxes first (that releases a capture thread waiting for a consumer in
    /// virtual time; a delegate call in progress is waited out by the caller), then ends
    /// every stream.
    private func endAll(_ session: AVCaptureSession) {
        closeInboxes(session)
        for stream in streams.values { end(stream, session) }
        streams.removeAll()
        for (key, router) in audioStreams { endAudio(router, key: key, session) }
    }

    private func closeInboxes(_ session: AVCaptureSession) {
        waits += session.consumers.compactMap { $0.closeInbox() }
    }

    /// Tells the app a device it wants streams for another session.
    private func reportInUse(_ device: AVCaptureDevice, _ session: AVCaptureSession) {
        postOnMainQueue(AVCaptureSession.runtimeErrorNotification, object: session, userInfo: [
            AVCaptureSessionErrorKey: AVError(.deviceAlreadyUsedByAnotherSession, "\(device.localizedName) is streaming for another session.")
        ])
    }

    /// Stops one camera's stream and gives the device back.
    private func end(_ stream: Stream, _ session: AVCaptureSession) {
        stream.router.stop()
        stream.device.backend.stop()
        stream.device.releaseStreaming(by: session)
    }

    /// Stops a microphone's stream and gives the device back.
    private func endAudio(_ router: AudioRouter, key: ObjectIdentifier, _ session: AVCaptureSession) {
        router.close()  // releases a capture thread waiting for consumers (virtual time)
        router.device.backend.stop()
        router.device.releaseStreaming(by: session)
        audioStreams[key] = nil
    }

    // MARK: Configuration

    /// Brings the streams in line with the session's graph, if it runs: a camera streams
    /// while a connection from it waits for no deferred start (and, multi-cam, is enabled),
    /// a microphone while a connection from it has an output. A multi-cam configuration
    /// over the hardware's budget, or one whose cameras all failed, stops the run.
    func apply(_ session: AVCaptureSession) {
        guard state.isRunning else { return }
        let epoch: Int64? = if case .starting(let epoch) = state { epoch } else { nil }
        let multiCam = session.runsSeveralCameras
        if multiCam, session.hardwareCost > 1 {
            postOnMainQueue(AVCaptureSession.runtimeErrorNotification, object: session, userInfo: [
                AVCaptureSessionErrorKey: AVError(
                    .sessionHardwareCostOverage, "The cameras need more than the hardware can read out (hardwareCost \(session.hardwareCost)).")
            ])
            stopAll(session)
            return
        }
        let connections = session.connections
        let deviceInputs = session.deviceInputs
        var wanted: [ObjectIdentifier: (AVCaptureDevice, [AVCaptureConnection])] = [:]
        for input in deviceInputs {
            let mine = connections.filter { connection in
                connection.inputPorts.contains { $0.input === input } && (!multiCam || connection.isEnabled)
                    && !session.waitsForDeferredStart(connection)
            }
            guard !mine.isEmpty else { continue }
            wanted[ObjectIdentifier(input.device.core)] = (input.device, mine)
        }
        for (key, stream) in streams where wanted[key] == nil {
            end(stream, session)
            streams[key] = nil
        }
        for (key, (device, deviceConnections)) in wanted {
            var configuration = device.streamConfiguration(
                pixelFormat: AVCaptureSession.renderFormat(for: deviceConnections, tenBitFormat: device.activeFormat.spec.pixelFormat.isTenBit))
            // An input's videoMinFrameDurationOverride caps the rate the device runs at.
            let overrides = deviceInputs.filter { $0.device.core === device.core }.map(\.videoMinFrameDurationOverride).filter(\.isValid)
            if let cap = overrides.max(), cap > configuration.minFrameDuration {
                configuration.minFrameDuration = cap
                configuration.maxFrameDuration = max(configuration.maxFrameDuration, cap)
            }
            configuration.mirrored = !deviceConnections.isEmpty && deviceConnections.allSatisfy { $0.transform.mirrored }
            configuration.videoStabilization = deviceConnections.map(\.activeVideoStabilizationMode.rawValue).max() ?? 0
            if var stream = streams[key] {
                stream.router.setTargets(deviceConnections)
                if stream.configuration != configuration {
                    device.backend.update(configuration)
                    stream.configuration = configuration
                    streams[key] = stream
                }
                continue
            }
            guard device.claimStreaming(for: session) else {
                reportInUse(device, session)
                continue
            }
            let router = FrameRouter(session: session, device: device, epoch: epoch)
            router.setTargets(deviceConnections)
            do {
                try device.backend.start(configuration, sink: router)
                streams[key] = Stream(device: device, router: router, configuration: configuration)
            } catch {
                device.releaseStreaming(by: session)
                session.reportRuntimeError(error, device: device)
            }
        }
        // Microphones after cameras: a movie output's sound then waits for its first frame
        // (virtual time) instead of racing ahead while the camera starts.
        applyAudio(session, epoch: epoch)
        if streams.isEmpty && !wanted.isEmpty { stopAll(session) }
    }

    private func applyAudio(_ session: AVCaptureSession, epoch: Int64?) {
        let connections = session.connections
        var wanted: [ObjectIdentifier: (AVCaptureDevice, [AVCaptureConnection])] = [:]
        for input in session.audioInputs {
            let mine = connections.filter { $0.output != nil && $0.inputPorts.contains { $0.input === input } }
            guard !mine.isEmpty else { continue }
            wanted[ObjectIdentifier(input.device.core)] = (input.device, mine)
        }
        for (key, router) in audioStreams where wanted[key] == nil { endAudio(router, key: key, session) }
        for (key, (device, deviceConnections)) in wanted {
            if let router = audioStreams[key] {
                router.setTargets(deviceConnections)
                continue
            }
            guard let microphone = device.backend as? any AudioCaptureBackend, device.claimStreaming(for: session) else {
                reportInUse(device, session)
                continue
            }
            let router = AudioRouter(session: session, device: device, epoch: epoch)
            router.setTargets(deviceConnections)
            do {
                try microphone.startAudio(sink: router)
                audioStreams[key] = router
            } catch {
                device.releaseStreaming(by: session)
                session.reportRuntimeError(error, device: device)
            }
        }
    }

    // MARK: Failures and interruptions

    /// A camera failed mid-stream: its stream ends and the app hears why; with no camera
    /// left the run stops. Answers whether it did.
    func cameraDidFail(_ router: FrameRouter, error: BackendError, _ session: AVCaptureSession) -> Bool {
        guard let key = streams.first(where: { $0.value.router === router })?.key, let stream = streams[key] else { return false }
        end(stream, session)
        streams[key] = nil
        session.reportRuntimeError(error, device: stream.device)
        guard streams.isEmpty && state.isRunning else { return false }
        stopAll(session)
        return true
    }

    /// A microphone failed mid-stream: its stream ends and the app hears why.
    func microphoneDidFail(_ router: AudioRouter, error: BackendError, _ session: AVCaptureSession) {
        guard let key = audioStreams.first(where: { $0.value === router })?.key else { return }
        endAudio(router, key: key, session)
        session.reportRuntimeError(error, device: router.device)
    }

    /// Stops an interrupted camera's stream but keeps it, so the run goes on and a
    /// configuration change meanwhile does not restart it. False (and the claim abandoned)
    /// if the session stopped or the device has no stream.
    func interrupt(_ key: ObjectIdentifier, generation: Int, _ session: AVCaptureSession) -> Bool {
        guard state.isRunning, let stream = streams[key], session.interruptions.interrupt(key, generation: generation) else {
            session.interruptions.abandon(key)
            return false
        }
        stream.router.stop()
        stream.device.backend.stop()
        return true
    }

    /// An interrupted camera resumes: its kept stream goes, so that the next `apply` starts
    /// a new one.
    func forgetInterruptedStream(_ key: ObjectIdentifier) {
        if let stream = streams.removeValue(forKey: key) { stream.router.stop() }
    }
}
