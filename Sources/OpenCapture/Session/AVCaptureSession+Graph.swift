import Foundation

extension AVCaptureSession {
    // MARK: Inputs

    func validateAddInput(_ input: AVCaptureInput) throws(AVCaptureException) {
        func refuse(_ why: String) -> AVCaptureException {
            AVCaptureException(.invalidArgument, selectorReason("AVCaptureSession", "addInput:", "Can't add \(input) because \(why)"))
        }
        if inputs.contains(where: { $0 === input }) { throw refuse("it is already in the session") }
        if let metadataInput = input as? AVCaptureMetadataInput {
            // App-supplied metadata: one session at a time; it never connects by itself.
            if metadataInput.session != nil { throw refuse("it is already in a session") }
            return
        }
        guard let deviceInput = input as? AVCaptureDeviceInput else { throw refuse("it is not a device input") }
        if deviceInput.device.core.isAudio {
            // One microphone per session, beside the cameras.
            if !audioInputs.isEmpty { throw refuse("the session already has a microphone input") }
            guard deviceInput.device.isConnected else { throw refuse("the device is not connected") }
            return
        }
        if runsSeveralCameras {
            if deviceInputs.contains(where: { $0.device == deviceInput.device }) { throw refuse("its camera is already in the session") }
            guard deviceInput.device.activeFormat.isMultiCamSupported else {
                throw refuse("the camera's active format is not multi-cam supported (use a format with isMultiCamSupported)")
            }
        } else if !deviceInputs.isEmpty {
            throw refuse("the session already has a camera input (use AVCaptureMultiCamSession for several)")
        }
        guard deviceInput.device.isConnected else { throw refuse("the device is not connected") }
        let preset = sessionPreset
        guard deviceInput.device.supportsSessionPreset(preset) else {
            throw refuse("the device does not support \(preset.rawValue)")
        }
    }

    /// The checked form of `addInput(_:)` (Linux addition).
    public func addInputChecked(_ input: AVCaptureInput, connect: Bool = true) throws(AVCaptureException) {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        try validateAddInput(input)
        if let metadataInput = input as? AVCaptureMetadataInput {
            withConfiguration {
                metadataInput.session = self
                model.withLock { $0.inputs.append(input) }
            }
            return
        }
        withConfiguration {
            let deviceInput = input as! AVCaptureDeviceInput
            let device = deviceInput.device
            // As iOS does on addInput; an observed change is announced once the lock is let go.
            if let change = KeyValueChange.watch(deviceInput, keys: ["videoMinFrameDurationOverride"]) {
                deviceInput.resetVideoMinFrameDurationOverride()
                configurationLock.afterUnlock { change.didChange() }
            } else {
                deviceInput.resetVideoMinFrameDurationOverride()
            }
            device.attach(to: self)
            let preset = sessionPreset
            if device.core.isAudio {
                // Presets and frame durations are video settings.
            } else if preset == .inputPriority {
                // A multi-cam session keeps each camera's own frame rate.
                if !runsSeveralCameras { device.resetFrameDurations() }
            } else {
                device.applyPreset(preset)
            }
            model.withLock { $0.inputs.append(input) }
            if connect {
                for output in outputs {
                    let ports = input.ports.filter { output.acceptedMediaTypes.contains($0.mediaType) }
                    guard !ports.isEmpty, output.hasRoom(for: ports) else { continue }
                    addConnectionUnchecked(AVCaptureConnection(inputPorts: ports, output: output))
                }
            }
            connectWaitingPreviewLayers()
        }
    }

    func addInputWithNoConnectionsBacking(_ input: AVCaptureInput) {
        enforce { try addInputChecked(input, connect: false) }
    }

    // MARK: Outputs

    /// The checked form of `addOutput(_:)` (Linux addition).
    public func addOutputChecked(_ output: AVCaptureOutput, connect: Bool = true) throws(AVCaptureException) {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        guard canAddOutput(output) else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureSession", "addOutput:", "Can't add \(output) because it is already in a session or is not supported"))
        }
        withConfiguration {
            output.attach(to: self)
            model.withLock { $0.outputs.append(output) }
            // The first inputs with ports of the media types the output takes, while it has room:
            // the camera for video outputs, the microphone for audio data outputs, both for a
            // movie output.
            for input in deviceInputs + audioInputs where connect {
                let ports = input.ports.filter { output.acceptedMediaTypes.contains($0.mediaType) }
                guard !ports.isEmpty, output.hasRoom(for: ports) else { continue }
                addConnectionUnchecked(AVCaptureConnection(inputPorts: ports, output: output))
            }
            if isRunning { output.consumer?.openInbox() }
        }
        // A preparation asked for before the output was in this (running) session.
        settleOutputs()
    }

    func addOutputWithNoConnectionsBacking(_ output: AVCaptureOutput) {
        enforce { try addOutputChecked(output, connect: false) }
    }

    // MARK: Connections

    func canAddConnectionBacking(_ connection: AVCaptureConnection) -> Bool {
        if connection.output == nil, let layer = connection.videoPreviewLayer {
            return layer.session === self && layer.connection == nil && !connection.inputPorts.isEmpty
                && connection.inputPorts.allSatisfy({ port in inputs.contains { $0 === port.input } })
                && !connections.contains(where: { $0 === connection })
        }
        guard let output = connection.output, outputs.contains(where: { $0 === output }),
            !connection.inputPorts.isEmpty,
            connection.inputPorts.allSatisfy({ port in inputs.contains { $0 === port.input } }),
            // Some port of media the output takes (app metadata: only a movie file output).
            connection.inputPorts.contains(where: { output.acceptedMediaTypes.contains($0.mediaType) }),
            !connections.contains(where: { $0 === connection })
        else { return false }
        return output.hasRoom(for: connection.inputPorts)
    }

    func addConnectionBacking(_ connection: AVCaptureConnection) {
        enforce {
            guard canAddConnection(connection) else {
                throw AVCaptureException(
                    .invalidArgument,
                    selectorReason("AVCaptureSession", "addConnection:", "Can't add \(connection) - use -canAddConnection: to check"))
            }
        }
        withConfiguration { addConnectionUnchecked(connection) }
    }

    func removeConnectionBacking(_ connection: AVCaptureConnection) {
        guard connections.contains(where: { $0 === connection }) else { return }
        withConfiguration { removeConnectionUnchecked(connection) }
    }

    func addConnectionUnchecked(_ connection: AVCaptureConnection) {
        connection.attach(to: self)
        connection.output?.add(connection)
        connection.videoPreviewLayer?.connectionWasAdded(connection)
        model.withLock { $0.connections.append(connection) }
    }

    func removeConnectionUnchecked(_ connection: AVCaptureConnection) {
        connection.output?.remove(connection)
        connection.videoPreviewLayer?.connectionWasRemoved(connection)
        connection.attach(to: nil)
        model.withLock { $0.connections.removeAll { $0 === connection } }
    }

    // MARK: Preview layers

    /// A layer now shows this session; with `connect`, its camera feeds the layer now or
    /// when one is added.
    func adoptPreviewLayer(_ layer: AVCaptureVideoPreviewLayer, connect: Bool) {
        configurationLock.lock()
        defer { configurationLock.unlock() }
        model.withLock { model in
            model.previewLayers.removeAll { $0.layer == nil || $0.layer === layer }
            model.previewLayers.append(WeakPreviewLayer(layer: layer))
        }
        if connect { withConfiguration { connectWaitingPreviewLayers() } }
    }

    /// A layer no longer shows this session.
    func forgetPreviewLayer(_ layer: AVCaptureVideoPreviewLayer) {
        model.withLock { $0.previewLayers.removeAll { $0.layer == nil || $0.layer === layer } }
    }

    /// Connects the camera to every layer that asked for it and has no connection.
    /// Called with the configuration lock held.
    func connectWaitingPreviewLayers() {
        guard let port = deviceInputs.first?.ports.first(where: { $0.mediaType == .video }) else { return }
        let layers = model.withLock { $0.previewLayers.compactMap(\.layer) }
        for layer in layers where layer.wantsConnection {
            addConnectionUnchecked(AVCaptureConnection(inputPort: port, videoPreviewLayer: layer))
        }
    }
}
