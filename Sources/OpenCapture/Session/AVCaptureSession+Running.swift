import Foundation

extension AVCaptureSession {
    /// A device streaming for this session and the router that spreads its frames.
    struct RunningStream {
        let device: AVCaptureDevice
        let router: FrameRouter
        var configuration: StreamConfiguration
    }

    /// The checked form of `startRunning()` (Linux addition): throws for misuse; device
    /// failures still arrive as `runtimeErrorNotification`.
    public func startRunningChecked() throws(AVCaptureException) {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        try requireNoTransaction("startRunning")
        guard !isRunning else { return }
        running.store(true, ordering: .releasing)
        for consumer in consumers { consumer.openInbox() }
        beginDeferredStart()
        runEpoch = CMClockGetHostTimeClock().time.value
        applyConfiguration()
        runEpoch = nil
        if isRunning {
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
        running.store(false, ordering: .releasing)
        endDeferredStart()
        stopAllStreams()
        interruptions.reset()  // stopping ends any interruption, retiring its watcher
        for consumer in consumers { consumer.sessionDidStop(releasing: configurationLock) }
        postOnMainQueue(Self.didStopRunningNotification, object: self)
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

    private func stopAllStreams() {
        // Close the inboxes first: that releases a capture thread waiting for a consumer
        // (virtual time); a delegate call in progress is waited out after the lock is let go.
        closeInboxes()
        for stream in streams.values { end(stream) }
        streams.removeAll()
        for (key, router) in audioStreams { endAudio(router, key: key) }
    }

    /// Stops a microphone's stream and gives the device back.
    private func endAudio(_ router: AudioRouter, key: ObjectIdentifier) {
        router.close()  // releases a capture thread waiting for consumers (virtual time)
        router.device.backend.stop()
        router.device.releaseStreaming(by: self)
        audioStreams[key] = nil
    }

    /// Brings the running microphones in line with the graph: a microphone streams while a
    /// connection from it is enabled. Called with the configuration lock held.
    private func applyAudioConfiguration() {
        var wanted: [ObjectIdentifier: (AVCaptureDevice, [AVCaptureConnection])] = [:]
        for input in audioInputs {
            let mine = connections.filter { $0.output != nil && $0.inputPorts.contains { $0.input === input } }
            guard !mine.isEmpty else { continue }
            wanted[ObjectIdentifier(input.device.core)] = (input.device, mine)
        }
        for (key, router) in audioStreams where wanted[key] == nil { endAudio(router, key: key) }
        for (key, (device, deviceConnections)) in wanted {
            if let router = audioStreams[key] {
                router.setTargets(deviceConnections)
                continue
            }
            guard let microphone = device.backend as? any AudioCaptureBackend, device.claimStreaming(for: self) else {
                postOnMainQueue(Self.runtimeErrorNotification, object: self, userInfo: [
                    AVCaptureSessionErrorKey: AVError(.deviceAlreadyUsedByAnotherSession, "\(device.localizedName) is streaming for another session.")
                ])
                continue
            }
            let router = AudioRouter(session: self, device: device, epoch: runEpoch)
            router.setTargets(deviceConnections)
            do {
                try microphone.startAudio(sink: router)
                audioStreams[key] = router
            } catch {
                device.releaseStreaming(by: self)
                reportRuntimeError(error, device: device)
            }
        }
    }

    /// Called from an audio router when its microphone failed mid-stream.
    func audioStreamDidFail(_ router: AudioRouter, error: BackendError) {
        Self.faultQueue.async { [self] in
            configurationLock.lock()
            defer { configurationLock.unlock() }
            guard let key = audioStreams.first(where: { $0.value === router })?.key else { return }
            endAudio(router, key: key)
            reportRuntimeError(error, device: router.device)
        }
    }

    /// Closes the outputs' inboxes at once and, once the configuration lock is released,
    /// waits for a delegate call in progress, so that no media of the run reaches a delegate
    /// afterwards. Called with the configuration lock held.
    func closeInboxes() {
        for consumer in consumers { consumer.closeInbox(waitingAfter: configurationLock) }
    }

    /// Stops one device's stream and gives the device back.
    private func end(_ stream: RunningStream) {
        stream.router.stop()
        stream.device.backend.stop()
        stream.device.releaseStreaming(by: self)
    }

    /// Brings the running devices in line with the graph. Called with the configuration lock held.
    func applyConfiguration() {
        model.withLock { $0.needsApply = false }
        if automaticallyConfiguresCaptureDeviceForWideColor {
            for input in deviceInputs { input.device.configureWideColor(for: self) }
        }
        guard isRunning else { return }
        var wanted: [ObjectIdentifier: (AVCaptureDevice, [AVCaptureConnection])] = [:]
        let multiCam = runsSeveralCameras
        if multiCam, hardwareCost > 1 {
            running.store(false, ordering: .releasing)
            closeInboxes()
            postOnMainQueue(Self.runtimeErrorNotification, object: self, userInfo: [
                AVCaptureSessionErrorKey: AVError(.sessionHardwareCostOverage, "The cameras need more than the hardware can read out (hardwareCost \(hardwareCost)).")
            ])
            for stream in streams.values { end(stream) }
            streams.removeAll()
            return
        }
        for input in deviceInputs {
            let mine = connections.filter { connection in
                connection.inputPorts.contains { $0.input === input } && (!multiCam || connection.isEnabled)
                    && !waitsForDeferredStart(connection)
            }
            guard !mine.isEmpty else { continue }
            wanted[ObjectIdentifier(input.device.core)] = (input.device, mine)
        }
        for (key, stream) in streams where wanted[key] == nil {
            end(stream)
            streams[key] = nil
        }
        for (key, (device, deviceConnections)) in wanted {
            var configuration = device.streamConfiguration(
                pixelFormat: Self.renderFormat(for: deviceConnections, tenBitFormat: device.activeFormat.spec.pixelFormat.isTenBit))
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
            guard device.claimStreaming(for: self) else {
                postOnMainQueue(Self.runtimeErrorNotification, object: self, userInfo: [
                    AVCaptureSessionErrorKey: AVError(.deviceAlreadyUsedByAnotherSession, "\(device.localizedName) is streaming for another session.")
                ])
                continue
            }
            let router = FrameRouter(session: self, device: device, epoch: runEpoch)
            router.setTargets(deviceConnections)
            do {
                try device.backend.start(configuration, sink: router)
                streams[key] = RunningStream(device: device, router: router, configuration: configuration)
            } catch {
                device.releaseStreaming(by: self)
                reportRuntimeError(error, device: device)
            }
        }
        // Microphones after cameras: a movie output's sound then waits for its first frame
        // (virtual time) instead of racing ahead while the camera starts.
        applyAudioConfiguration()
        if streams.isEmpty && !wanted.isEmpty {
            running.store(false, ordering: .releasing)
            closeInboxes()
            for (key, router) in audioStreams { endAudio(router, key: key) }
        }
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

    /// Called from a router when its device failed mid-stream.
    func streamDidFail(_ router: FrameRouter, error: BackendError) {
        Self.faultQueue.async { [self] in
            configurationLock.lock()
            defer { configurationLock.unlock() }
            guard let key = streams.first(where: { $0.value.router === router })?.key, let stream = streams[key] else { return }
            end(stream)
            streams[key] = nil
            reportRuntimeError(error, device: stream.device)
            if streams.isEmpty && isRunning {
                running.store(false, ordering: .releasing)
                closeInboxes()
                for (key, router) in audioStreams { endAudio(router, key: key) }
                postOnMainQueue(Self.didStopRunningNotification, object: self)
            }
        }
    }
}
