import CaptureCore
import ColorScience
import Dispatch
import Foundation
import Synchronization

/// One run of a simulated camera, from `start` to `stop`: the capture thread and
/// everything it owns (pool, renderer, auto exposure, white balance, clock).
///
/// Only the capture thread touches the mutable state after `launch`; other threads talk
/// to it through `StreamControls`, `PendingStills`, the `stopping` flag and the wake
/// semaphore. Stills are taken at frame boundaries and rendered by the `StillProcessor`.
final class CaptureStream: @unchecked Sendable {
    let camera: SimulatedCameraModel
    let sink: any FrameSink
    let pacing: Pacing
    let controls: StreamControls
    /// The camera's thermal model, heated by this stream.
    let thermal: ThermalModel
    private let stills: StillProcessor
    private let pendingStills = PendingStills()
    /// Zero shutter lag: who wants the history, and the history itself (capture thread only).
    private let recentFrames: RecentFrames
    private var history = RecentFrameRing()
    /// The presentation time of the newest frame boundary (a virtual-time request's moment).
    private let latestBoundary = Atomic<Int64>(0)
    /// Stills taken so far (their noise keys count down from −1).
    private var stillCount: Int64 = 0
    private(set) var configuration: StreamConfiguration
    private let maximumBufferCount: Int
    /// Layer, pool, threads: taken from the camera's cache, given back when the loop ends.
    private let resources: StreamResources
    private let cache: StreamResources.Cache
    private var pool: CVPixelBufferPool
    private let renderer: FrameRenderer
    private var autoExposure: AutoExposure
    private var zoom: Double
    private let response: CameraResponse
    private var whiteBalance: AutoWhiteBalance
    /// The light on the scene for the current frame, and the scene → camera transform of it.
    private var illuminant: TemperatureTint
    private var sceneColor: ColorTransform
    /// Requests taken at a frame boundary (storage kept, swapped with `StreamControls`).
    private var requests: [ControlRequest] = []
    /// The highest request id applied so far (carried over from earlier streams).
    private var appliedRequest: UInt64
    // The colour matrix for the gains it was made for (recomputed when the gains change).
    private var matrixGains = SIMD3<Double>(repeating: 0)
    private var matrix = ColorTransform.identity
    /// Watches the zone statistics for substantial scene changes.
    private let subjectArea = SubjectAreaMonitor()
    /// Video HDR: whether this frame merges exposures, and the merge (made when first needed).
    private var videoHDR: VideoHDRControl
    private var hdrMerge: HDRMerge?
    /// Whether frames carry their raw mosaic.
    private var deliversRaw = false
    /// Time-code displays drawn into each frame after the ISP.
    private var timeCodes: [TimeCodeStamp] = []
    /// Focus, zoom and torch.
    private let lens: LensUnit
    /// The constituent of a virtual device filming now (0 for a physical camera).
    private var constituent = 0
    /// Hand tremor and stabilisation: the shaken view is resampled from the lens's layer.
    private var shake: CameraShake
    private let shaker = ZoomResampler()
    /// The layer the lens unit chose for this frame (before the shake moved it).
    private var lensSubstitute: StaticLayer?

    private let stopping = Atomic<Bool>(false)
    /// The capture thread's pthread id, to spot `stop()` called from a sink callback.
    private let threadID = Atomic<UInt>(0)
    /// Signalled by `requestStop` to cut a real-time wait short.
    private let wake = DispatchSemaphore(value: 0)
    private let running = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    // The frame clock: frame `index` starts at `segmentStart` + (index − `segmentIndex`)
    // × `segmentDuration`. A new segment begins whenever the frame duration changes, so
    // timestamps are exact sums of durations with no rounding drift.
    private var index: Int64 = 0
    private var startTime: Int64 = 0
    private var segmentStart: Int64 = 0
    private var segmentIndex: Int64 = 0
    private var segmentDuration = CMTime()
    /// The presentation time up to which the thermal model has been advanced.
    private var thermalTime: Int64 = 0
    private var pressure = ThermalModel.Pressure(level: 0, factors: 0)

    /// Makes the auto-exposure state for `configuration` and takes the pool and renderer
    /// from `cache` (or makes them); the static layer is rasterised here, on the caller's
    /// thread, unless the kept one fits.
    init(
        camera: SimulatedCameraModel, configuration: StreamConfiguration, sink: any FrameSink, pacing: Pacing,
        seed: UInt64, maximumBufferCount: Int, controls: StreamControls, stills: StillProcessor,
        thermal: ThermalModel = ThermalModel(), lens lensControls: LensControls = LensControls(),
        cache: StreamResources.Cache = StreamResources.Cache(), recentFrames: RecentFrames = RecentFrames()
    ) {
        self.recentFrames = recentFrames
        self.camera = camera
        self.thermal = thermal
        self.stills = stills
        self.configuration = configuration
        self.sink = sink
        self.pacing = pacing
        self.controls = controls
        self.maximumBufferCount = maximumBufferCount
        let values = controls.snapshot(takingPending: true)
        let saved = controls.acknowledged
        let format = camera.descriptor.formats[configuration.formatIndex]
        self.cache = cache
        let resources = cache.take() ?? StreamResources(name: "OpenCapture.sim.\(camera.descriptor.uniqueID)")
        self.resources = resources
        lens = LensUnit(camera: camera, formatIndex: configuration.formatIndex, controls: lensControls, resources: resources)
        zoom = lens.initialZoom(zoomFactor: values.zoomFactor, maximum: format.maxZoomFactor)
        pool = resources.pool(
            configuration.pixelFormat, format, maximumBufferCount: maximumBufferCount, colorSpace: configuration.colorSpace)
        var scene = Scene(seed: seed, luminanceScale: values.luminanceScale)
        scene.content = values.content
        scene.timeline = values.timeline
        scene.pictures = values.pictures
        renderer = resources.renderer(scene: scene, optics: camera.optics(for: format))
        autoExposure = AutoExposure(
            limits: CaptureStream.limits(format, configuration, lowLightBoost: camera.descriptor.supportsLowLightBoost),
            memory: saved.exposure)
        response = camera.response
        videoHDR = VideoHDRControl(mode: configuration.videoHDR)
        whiteBalance = AutoWhiteBalance(response: response, memory: saved.whiteBalance)
        appliedRequest = saved.appliedRequest
        illuminant = values.illuminant
        sceneColor = ColorTransform(response.sceneToCamera(under: values.illuminant))
        shake = CameraShake(amplitude: values.shakeAmplitude, seed: seed)
        requests.reserveCapacity(8)
        lens.prepareLayer(renderer: renderer, rasterZoom: zoom, color: sceneColor, pressureLevel: thermal.pressure.level)
    }

    /// Starts the capture thread and returns once it runs.
    func launch() {
        // The thread holds the stream only while the loop runs and says it exited after
        // letting go, so once `join` returns the stream's memory is either back in the
        // camera's cache or freed (the caller's reference aside).
        let thread = Thread { [weak self, exited] in
            self?.captureLoop()
            exited.signal()
        }
        thread.name = "OpenCapture.sim.\(camera.descriptor.uniqueID)"
        thread.start()
        running.wait()
    }

    /// Asks the loop to end. Returns whether the caller must wait for it (false when the
    /// caller is the capture thread itself, i.e. `stop()` from inside a sink callback).
    func requestStop() -> Bool {
        stopping.store(true, ordering: .releasing)
        wake.signal()
        return threadID.load(ordering: .acquiring) != UInt(pthread_self())
    }

    /// Waits until the capture thread has exited.
    func join() {
        exited.wait()
        exited.signal()  // let a second joiner through too
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func captureLoop() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        segmentDuration = currentFrameDuration()
        // The session's epoch, shared with a microphone started with this camera, so that a
        // flash and a clap scripted at the same time happen at the same host time. In real
        // time only if it is less than a frame old (an older one would make frames late).
        let now = HostClock.now()
        if let epoch = sink.streamEpoch, epoch <= now,
            pacing == .virtual || now - epoch < HostClock.nanoseconds(of: segmentDuration)
        {
            startTime = epoch
        } else {
            startTime = now
        }
        segmentStart = startTime
        thermalTime = startTime
        thermal.beginHeating(workload)
        pressure = thermal.pressure
        running.signal()
        while !isStopping {
            applyControls()
            setFrameDuration(currentFrameDuration())
            let pts = presentationTime(of: index)
            if pacing == .realTime {
                guard waitUntil(pts) else { break }
                if skipLateFrames() { continue }
            } else if !sink.waitUntilReadyForNextFrame() {
                break
            }
            if isStopping { break }
            heat(until: pts)
            takeStills(pts: pts)
            produceFrame(pts: pts)
            index += 1
        }
        for entry in pendingStills.close() {
            stills.fail(entry.completion, .streamFailed("the stream stopped before the still was taken"))
        }
        stills.release()
        releaseHistory()
        resources.streamEnded()
        cache.give(resources)
        thermal.endHeating()
    }

    /// What the stream costs in heat: the sensor's pixel rate at the current frame duration.
    private var workload: ThermalModel.Workload {
        let format = camera.descriptor.formats[configuration.formatIndex]
        let seconds = HostClock.seconds(segmentDuration)
        let rate = seconds > 0 ? Double(format.width * format.height) / seconds : 0
        return ThermalModel.Workload(pixelsPerSecond: rate, torch: lens.isTorchActive, hdr: videoHDR.isActive)
    }

    /// Advances the thermal model over the stream time since the last frame (skipped late
    /// frames included), so heat follows the frame clock and is deterministic in virtual time.
    private func heat(until pts: Int64) {
        let seconds = Double(pts - thermalTime) / Double(HostClock.timescale)
        thermalTime = pts
        pressure = thermal.advance(streamSeconds: seconds)
        thermal.setWorkload(workload)  // the workload from this frame on
    }

    /// Renders frame `index` and hands it to the sink, or reports it dropped.
    private func produceFrame(pts: Int64) {
        var metadata = baseMetadata(pts: pts)
        guard let buffer = pool.dequeue() else {
            sink.backendDidDrop(count: 1, reason: .outOfBuffers, metadata: metadata)
            return
        }
        let format = camera.descriptor.formats[configuration.formatIndex]
        // A virtual device films through its active constituent's sensor and aperture; the
        // scene's framing (and the vignetting angle, which follows it) is the device's.
        let filming = camera.physical(constituent)
        let sensor = Sensor(filming.sensor)
        let optics = camera.optics(for: format)
        let light = filming.optics(for: format)
        let time = Double(pts - startTime) / Double(HostClock.timescale)
        let exposure = sensor.exposure(
            luminanceScale: renderer.scene.whiteLuminance(at: time), optics: light,
            exposureDuration: autoExposure.exposureDuration, iso: autoExposure.iso, outputWidth: format.width)
        let gains = whiteBalance.gains
        renderer.isp.apply(
            ISP.Settings(
                bitDepth: filming.sensor.bitDepth, blackLevel: exposure.blackLevel, whiteDN: exposure.whiteDN,
                digitalGain: exposure.digitalGain, whiteBalance: SIMD3<Float>(gains), colorMatrix: colorMatrix(for: gains),
                range: ISP.range(of: configuration.pixelFormat), outputBitDepth: configuration.pixelFormat.isTenBit ? 10 : 8,
                hlg: configuration.colorSpace == OutputColorSpace.hlgBT2020))
        var disc = BallPainter.Disc(
            renderer.scene.ball(at: time), width: format.width, height: format.height, zoom: zoom, optics: optics,
            response: sceneColor)
        lens.adjust(&disc, width: format.width)
        var frame = FrameRenderer.Frame(index: index, exposure: exposure, ball: disc)
        let merging = videoHDR.isActive
        if merging {
            let short = sensor.exposure(
                luminanceScale: renderer.scene.whiteLuminance(at: time), optics: light,
                exposureDuration: autoExposure.exposureDuration / Double(HDRMerge.ratio), iso: autoExposure.iso,
                outputWidth: format.width)
            let merge = hdrMerge ?? HDRMerge(shortExposure: short)
            merge.prepare(long: exposure, short: short)
            hdrMerge = merge
            frame.hdr = merge
        }
        frame.others = renderer.scene.movingObjects(at: time).map {
            var other = BallPainter.Disc($0, width: format.width, height: format.height, zoom: zoom, optics: optics, response: sceneColor)
            lens.adjust(&other, width: format.width)
            return other
        }
        let mosaic =
            deliversRaw
            ? RawMosaic(width: format.width, height: format.height, blackLevel: Int(exposure.blackLevel), whiteLevel: Int(exposure.maxCode))
            : nil
        frame.mosaic = mosaic?.samples
        let statistics = renderer.render(frame, into: buffer)
        // After the statistics were gathered: a display showing the time is not metered.
        for stamp in timeCodes { stamp.draw(nanoseconds: pts, into: buffer) }
        if mosaic != nil || resources.poolMayCarryRaw {
            // Pooled buffers keep attachments (the pool outlives streams): a stale mosaic
            // must not stay on a reused one.
            buffer.attachmentStore.withLock { $0[kOpenCaptureRawMosaicKey] = mosaic }
            resources.poolMayCarryRaw = true
        }
        autoExposure.update(
            meanLinear: ExposureMetering.meter(
                meanLinear: statistics.meanLinear, zones: renderer.zones, gains: gains,
                point: autoExposure.memory.pointOfInterest))
        videoHDR.update(statistics, longClipped: merging ? renderer.longClippedFraction : 0)
        metadata.isVideoHDREnabled = merging
        metadata.blackLevel = exposure.blackLevel
        metadata.analogGain = autoExposure.iso / max(exposure.digitalGain, 1e-6) / filming.sensor.baseISO
        metadata.meanLuma = statistics.meanLuma
        metadata.exposureTargetOffset = autoExposure.targetOffset
        let grey = renderer.zones.centreGrayWorldGains(maxGain: response.maxGain)
        metadata.grayWorldGains = (Float(grey.x), Float(grey.y), Float(grey.z))
        whiteBalance.update(renderer.zones)
        // The exposure this frame was taken with (auto exposure has already moved on), analog
        // part only: the zones are gathered before the ISP's digital gain.
        let analogExposure = metadata.exposureDuration * Double(metadata.iso) / Double(max(exposure.digitalGain, 1e-6))
        metadata.subjectAreaChanged = subjectArea.update(renderer.zones, exposure: analogExposure)
        lens.endFrame(buffer, subjectAreaChanged: metadata.subjectAreaChanged)
        controls.acknowledge(StreamControls.Acknowledged(
            whiteBalance: whiteBalance.memory, exposure: autoExposure.memory, appliedRequest: appliedRequest))
        if isStopping { return }
        sink.backendDidCapture(buffer, metadata: metadata)
    }

    /// Queues a still for the next frame boundary; false if the stream has ended. A
    /// zero-shutter-lag request is stamped with its moment: now in real time, the newest
    /// boundary in virtual time (the frame the sensor is on).
    func requestStill(_ request: StillRequest, completion: @escaping StillProcessor.Completion) -> Bool {
        var request = request
        if request.zeroShutterLag {
            request.moment = pacing == .realTime ? HostClock.now() : latestBoundary.load(ordering: .acquiring)
        }
        return pendingStills.add(PendingStills.Entry(request: request, completion: completion))
    }

    /// Hands the stills requested since the last boundary to the still processor, with the
    /// exposure, white balance, light and scene of frame `index`, which starts at `pts` (or,
    /// for zero shutter lag, of the newest kept boundary at or before the request's moment).
    /// Keeps the boundary in the history while anyone wants it.
    private func takeStills(pts: Int64) {
        latestBoundary.store(pts, ordering: .releasing)
        let keeping = recentFrames.isEnabled
        let entries = pendingStills.take()
        if !keeping { releaseHistory() }
        guard keeping || !entries.isEmpty else { return }
        let frame = boundaryFrame(pts: pts)
        if keeping {
            history.append(frame)
            recentFrames.setHeldBytes(history.bytes)
        }
        for entry in entries {
            stillCount += 1
            let flash = entry.request.flash && camera.hasFlash
            var source = frame
            var recalled = false
            if let moment = entry.request.moment, !flash, let past = history.frame(at: moment) {
                source = past
                recalled = past.metadata.presentationTime.value != pts
            }
            var job = StillJob(
                source, request: entry.request, flash: flash, noiseFrame: -stillCount, completion: entry.completion,
                fromRecentFrames: recalled)
            // The flash lights the scene otherwise: its still rasterises its own layer.
            if !flash { job.streamLayer = lens.lendLayer(of: renderer) }
            stills.submit(job)
        }
    }

    /// The state a still of the boundary at `pts` is rendered from.
    private func boundaryFrame(pts: Int64) -> StillFrame {
        let gains = whiteBalance.gains
        return StillFrame(
            camera: camera.physical(constituent), scene: renderer.scene, time: Double(pts - startTime) / Double(HostClock.timescale),
            zoom: zoom, format: camera.descriptor.formats[configuration.formatIndex], illuminant: illuminant,
            autoExposure: autoExposure, gains: gains, colorMatrix: stillColorMatrix(for: gains), metadata: baseMetadata(pts: pts),
            lens: lens.stillState)
    }

    private func releaseHistory() {
        guard history.count > 0 else { return }
        history.release()
        recentFrames.setHeldBytes(0)
    }

    /// Metadata known before rendering: timing, exposure, lens, white balance, light.
    private func baseMetadata(pts: Int64) -> FrameMetadata {
        let format = camera.descriptor.formats[configuration.formatIndex]
        var metadata = FrameMetadata()
        metadata.sequence = index
        metadata.presentationTime = HostClock.time(nanoseconds: pts)
        metadata.frameDuration = segmentDuration
        metadata.exposureDuration = autoExposure.exposureDuration
        metadata.iso = autoExposure.iso
        metadata.exposureState = autoExposure.state
        metadata.isAdjustingExposure = autoExposure.isAdjusting
        metadata.isLowLightBoostEnabled = autoExposure.isLowLightBoostEnabled
        metadata.exposureTargetBias = autoExposure.memory.bias
        metadata.lensAperture = camera.physical(constituent).descriptor.lensAperture
        metadata.activeConstituent = constituent
        metadata.zoomFactor = zoom
        lens.stamp(&metadata)
        let gains = SIMD3<Float>(whiteBalance.gains)
        metadata.whiteBalanceGains = (gains.x, gains.y, gains.z)
        metadata.whiteBalanceState = whiteBalance.state
        metadata.isAdjustingWhiteBalance = whiteBalance.isAdjusting
        metadata.sceneTemperature = illuminant.temperature
        metadata.sceneTint = illuminant.tint
        metadata.appliedRequest = appliedRequest
        metadata.width = format.width
        metadata.height = format.height
        metadata.systemPressureLevel = pressure.level
        metadata.systemPressureFactors = pressure.factors
        metadata.colorSpace = configuration.colorSpace
        return metadata
    }

    // MARK: Clock

    private func presentationTime(of frame: Int64) -> Int64 {
        segmentStart + HostClock.nanoseconds(of: segmentDuration, times: frame - segmentIndex)
    }

    /// Starts a new clock segment at frame `index` if the duration changed.
    private func setFrameDuration(_ duration: CMTime) {
        guard duration != segmentDuration else { return }
        segmentStart = presentationTime(of: index)
        segmentIndex = index
        segmentDuration = duration
    }

    /// The configured minimum frame duration, or the longer one auto exposure chose (in
    /// nanoseconds, capped at the configured maximum). A held (custom or locked) exposure
    /// may go past that maximum, as on iOS; it is within the format's longest exposure,
    /// which the format's longest frame allows. So may low-light boost, up to its own
    /// frame duration (auto exposure keeps it within that).
    private func currentFrameDuration() -> CMTime {
        let shortest = configuration.minFrameDuration
        guard autoExposure.frameDuration > HostClock.seconds(shortest) * (1 + 1e-9) else { return shortest }
        let chosen = Int64((autoExposure.frameDuration * Double(HostClock.timescale)).rounded(.up))
        if autoExposure.memory.isManual || autoExposure.isLowLightBoostEnabled {
            return HostClock.time(nanoseconds: chosen)
        }
        let longest = HostClock.nanoseconds(of: configuration.maxFrameDuration)
        return HostClock.time(nanoseconds: min(chosen, longest))
    }

    /// Real time: sleeps until `deadline` on the host clock. False if stopped meanwhile.
    private func waitUntil(_ deadline: Int64) -> Bool {
        while !isStopping {
            let remaining = deadline - HostClock.now()
            if remaining <= 0 { return true }
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(remaining)))
        }
        return false
    }

    /// Real time: if the loop is a whole frame or more behind, skips those frames and
    /// reports them as a discontinuity. Returns whether it skipped.
    private func skipLateFrames() -> Bool {
        let duration = HostClock.nanoseconds(of: segmentDuration)
        guard duration > 0 else { return false }
        let late = HostClock.now() - presentationTime(of: index)
        let skipped = late / duration
        guard skipped >= 1 else { return false }
        let metadata = baseMetadata(pts: presentationTime(of: index))
        index += skipped
        if !isStopping { sink.backendDidDrop(count: Int(skipped), reason: .discontinuity, metadata: metadata) }
        return true
    }

    // MARK: Configuration

    /// Applies control changes, requests and a pending configuration at this frame boundary.
    private func applyControls() {
        let values = controls.beginFrame(index, requests: &requests)
        for request in requests {
            if let control = request.whiteBalance { whiteBalance.apply(control) }
            autoExposure.apply(request)
            lens.apply(request, maximumZoom: camera.descriptor.formats[configuration.formatIndex].maxZoomFactor)
            appliedRequest = max(appliedRequest, request.id)
        }
        requests.removeAll(keepingCapacity: true)
        deliversRaw = values.rawMosaic
        timeCodes = values.timeCodes
        if values.illuminant != illuminant {
            illuminant = values.illuminant
            sceneColor = ColorTransform(response.sceneToCamera(under: illuminant))
        }
        if values.luminanceScale != renderer.scene.luminanceScale || values.content != renderer.scene.content
            || values.timeline != renderer.scene.timeline || values.pictures != renderer.scene.pictures
        {
            var scene = renderer.scene
            scene.luminanceScale = values.luminanceScale
            scene.content = values.content
            scene.timeline = values.timeline
            scene.pictures = values.pictures
            renderer.setScene(scene)
        }
        if let new = values.pendingConfiguration, new != configuration,
            camera.descriptor.formats.indices.contains(new.formatIndex)
        {
            let old = configuration
            configuration = new
            let format = camera.descriptor.formats[new.formatIndex]
            if new.formatIndex != old.formatIndex || new.pixelFormat != old.pixelFormat || new.colorSpace != old.colorSpace {
                pool = resources.pool(new.pixelFormat, format, maximumBufferCount: maximumBufferCount, colorSpace: new.colorSpace)
            }
            if new.colorSpace != old.colorSpace { matrixGains = SIMD3(repeating: 0) }
            videoHDR.setMode(new.videoHDR)
            autoExposure.setLimits(
                CaptureStream.limits(format, new, lowLightBoost: camera.descriptor.supportsLowLightBoost))
        }
        if values.shakeAmplitude != shake.amplitude { shake = CameraShake(amplitude: values.shakeAmplitude, seed: renderer.scene.seed) }
        renderer.substitute = lensSubstitute
        zoom = lens.beginFrame(
            pts: presentationTime(of: index), zoomFactor: values.zoomFactor, formatIndex: configuration.formatIndex,
            renderer: renderer, color: sceneColor, pressureLevel: pressure.level)
        lensSubstitute = renderer.substitute
        shakeView()
        if camera.isVirtual {
            constituent = min(values.pinnedConstituent ?? camera.constituentIndex(forZoom: zoom), camera.constituents.count - 1)
        }
    }

    /// Moves this frame's view by the hand tremor left after stabilisation, and crops it
    /// for the stabilisation mode (see `CameraShake`).
    private func shakeView() {
        let (crop, residual) = CameraShake.stabilization(mode: configuration.videoStabilization)
        guard shake.amplitude > 0 || crop != 1, let source = renderer.substitute ?? renderer.layer else { return }
        let time = Double(presentationTime(of: index) - startTime) / Double(HostClock.timescale)
        let tremor = shake.offset(at: time)
        let scale = Double(source.width) * source.zoom * residual
        renderer.substitute = shaker.resample(
            source, to: source.zoom * crop, offset: (tremor.x * scale, tremor.y * scale), workers: renderer.workers)
    }

    /// Camera (white-balanced) → linear RGB of the stream's colour space (sRGB, Display P3
    /// or BT.2020 primaries, all D65 white) for the white that `gains` neutralise.
    private func colorMatrix(for gains: SIMD3<Double>) -> ColorTransform {
        if gains != matrixGains {
            matrixGains = gains
            let model = response.model
            let toSRGB = model.cameraToLinearSRGB(forWhite: model.white(forGains: gains))
            matrix = ColorTransform(OutputColorSpace.matrix(toSRGB, colorSpace: configuration.colorSpace))
        }
        return matrix
    }

    /// Stills stay sRGB (their JPEG/EXIF say sRGB), whatever the video's colour space.
    private func stillColorMatrix(for gains: SIMD3<Double>) -> ColorTransform {
        guard configuration.colorSpace != OutputColorSpace.sRGB else { return colorMatrix(for: gains) }
        let model = response.model
        return ColorTransform(model.cameraToLinearSRGB(forWhite: model.white(forGains: gains)))
    }

    /// Auto exposure's limits for `format` at `configuration`; `lowLightBoost` if the camera has it.
    static func limits(
        _ format: DeviceFormatSpec, _ configuration: StreamConfiguration, lowLightBoost: Bool = false
    ) -> AutoExposure.Limits {
        let fastest = HostClock.seconds(configuration.minFrameDuration)
        let shortest = fastest > 0 ? fastest : 1 / max(format.maxFrameRate, 1)
        return AutoExposure.Limits(
            minExposure: format.minExposureDuration, maxExposure: format.maxExposureDuration, minISO: format.minISO,
            maxISO: format.maxISO, minFrameDuration: shortest,
            maxFrameDuration: max(HostClock.seconds(configuration.maxFrameDuration), shortest),
            boostFrameDuration: lowLightBoost ? AutoExposure.boostFrameDuration : 0)
    }

    /// The colour attachments of every buffer the camera renders: BT.709 primaries, the sRGB
    /// curve, and for Y'CbCr the BT.709 matrix.
    static func attachments(for pixelFormat: PixelFormat) -> [String: any Sendable] {
        var attachments: [String: any Sendable] = [
            kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_ITU_R_709_2,
            kCVImageBufferTransferFunctionKey: kCVImageBufferTransferFunction_sRGB,
        ]
        if pixelFormat.isYUV { attachments[kCVImageBufferYCbCrMatrixKey] = kCVImageBufferYCbCrMatrix_ITU_R_709_2 }
        return attachments
    }
}
