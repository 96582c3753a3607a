import CaptureCore
import ColorScience
import Dispatch
import Foundation
import Synchronization

/// Renders a simulated camera's still photos on a serial queue of its own.
///
/// The capture thread only copies the stream's state into a `StillJob` at a frame boundary
/// and submits it here, so the video stream never waits for a still: the still renders with
/// its own `FrameRenderer`s and `RenderWorkers` gang while frames keep coming (in real time
/// the two share the cores, and a frame that ends up late is dropped and reported as usual).
///
/// A still goes through the stream's pipeline (scene → optics → sensor → ISP) at its own
/// size: at the sensor's 4032×3024 each pixel is one photosite with its own noise, smaller
/// stills average photosites as the video formats do. Without the flash it uses the frame's
/// exposure, white balance and light as they are. With the flash it
/// 1. lights the scene with the ambient light plus the flash (`SceneLight.withFlash`);
/// 2. balances for that mixed light (unless white balance is locked), as auto white
///    balance would once it saw it;
/// 3. meters with pre-flashes (`preflashExposure`): small frames rendered under the flash,
///    correcting the exposure until the mean lands on auto exposure's mid-grey target.
///
/// Renderers are cached between stills (a burst at one size and light skips rasterising
/// the scene again) and released when the stream ends (`release`): at the sensor's size
/// they hold a few hundred megabytes, page-mapped, so releasing hands them back. The worker
/// gang's threads stay for the camera's lifetime, so stills after a restart make none.
/// Completions run on the queue, one still after another.
final class StillProcessor: @unchecked Sendable {
    /// The completion of one still request.
    typealias Completion = @Sendable (Result<StillCapture, BackendError>) -> Void

    /// Pre-flash frames are this wide at most: enough for the metering statistics.
    static let preflashWidth = 512
    /// At most this many pre-flashes; they stop early once within `preflashTolerance` EV.
    static let preflashCount = 4
    static let preflashTolerance: Float = 0.08

    private let name: String
    private let queue: DispatchQueue
    // Only touched on `queue`.
    private var workers: RenderWorkers?
    private var stillRenderer: FrameRenderer?
    private var preflashRenderer: FrameRenderer?
    /// Defocus and torch light on each renderer's layer.
    private var stillDefocus = Defocus()
    private var preflashDefocus = Defocus()
    /// The mosaic of the last `draw` that asked for one, until `render` takes it.
    private var drawnMosaic: RawMosaic?
    /// Whether the still renderer's layer is one the stream lent (blurred as it was).
    private var renderingLentLayer = false
    /// Whether stills render from the stream's layer when it is the one they would make
    /// (`StreamLayer`); off only where a test compares the two ways.
    let usesStreamLayers = Atomic<Bool>(true)
    /// Stills rendered from the stream's layer so far.
    let stillsFromStreamLayer = Atomic<Int>(0)

    /// `name` prefixes the queue's and the worker threads' names.
    init(name: String) {
        self.name = name
        queue = DispatchQueue(label: name)
    }

    /// Renders `job` on the queue and hands the still to its completion there.
    func submit(_ job: StillJob) {
        queue.async { [self] in job.completion(.success(render(job))) }
    }

    /// Fails a request, calling its completion on the queue (never on the caller's thread).
    func fail(_ completion: @escaping Completion, _ error: BackendError) {
        queue.async { completion(.failure(error)) }
    }

    /// Frees the renderers once the stills already submitted are done (the workers stay).
    func release() {
        queue.async { [self] in
            stillRenderer = nil
            renderingLentLayer = false
            preflashRenderer = nil
            stillDefocus = Defocus()
            preflashDefocus = Defocus()
        }
    }

    deinit {
        workers?.shutdown()
    }

    // MARK: Rendering (on the queue)

    private func render(_ job: StillJob) -> StillCapture {
        let request = job.request
        let optics = job.optics
        let response = job.camera.response
        let light =
            job.flash
            ? SceneLight.withFlash(ambient: job.illuminant, luminance: job.scene.whiteLuminance(at: job.time), response: response)
            : SceneLight(ambient: job.illuminant, luminance: job.scene.whiteLuminance(at: job.time), response: response)
        var gains = job.gains, matrix = job.colorMatrix
        if job.flash && job.metadata.whiteBalanceState != .locked {
            gains = light.balancingGains(maxGain: response.maxGain)
            let model = response.model
            matrix = ColorTransform(model.cameraToLinearSRGB(forWhite: model.white(forGains: gains)))
        }
        let settings = Settings(job: job, light: light, optics: optics, gains: gains, matrix: matrix)
        let exposure =
            job.flash
            ? preflashExposure(settings)
            : Self.exposure(request.exposure, auto: job.autoExposure)

        let renderer = cachedRenderer(stillRenderer, for: job, optics: optics)
        stillRenderer = renderer
        if let lent = job.streamLayer, usesStreamLayers.load(ordering: .relaxed),
            lent.serves(
                width: request.width, height: request.height, zoom: job.zoom, optics: optics, color: light.color,
                scene: job.scene, effect: lensEffect(settings, width: request.width))
        {
            renderer.borrow(lent.layer, optics: optics)
            renderingLentLayer = true
            stillsFromStreamLayer.add(1, ordering: .relaxed)
        } else {
            // A lent layer is blurred: never take it for the sharp one a refill would give.
            if renderingLentLayer { renderer.dropLayer() }
            renderingLentLayer = false
            let refilled = renderer.prepare(
                width: request.width, height: request.height, zoom: job.zoom, optics: optics, color: light.color)
            applyLens(settings, to: renderer, refilled: refilled, defocus: stillDefocus)
        }
        let buffer = CVBuffer(format: request.pixelFormat, width: request.width, height: request.height)
        let attachments = CaptureStream.attachments(for: request.pixelFormat)
        buffer.attachmentStore.withLock { $0 = attachments }
        let statistics = draw(settings, exposure: exposure, with: renderer, into: buffer, rawMosaic: request.raw)
        let mosaic = drawnMosaic
        drawnMosaic = nil
        let fused = fuse(request.fusedFrames, settings, exposure: exposure, with: renderer, into: buffer)

        var metadata = job.metadata
        metadata.width = request.width
        metadata.height = request.height
        metadata.exposureDuration = exposure.time
        metadata.iso = exposure.iso
        let g = SIMD3<Float>(gains)
        metadata.whiteBalanceGains = (g.x, g.y, g.z)
        metadata.sceneTemperature = light.white.temperature
        metadata.sceneTint = light.white.tint
        metadata.meanLuma = statistics.meanLuma
        metadata.exposureTargetOffset = Float(log2(max(statistics.meanLinear, 1e-5) / job.autoExposure.biasedTarget))
        let grey = renderer.zones.centreGrayWorldGains(maxGain: response.maxGain)
        metadata.grayWorldGains = (Float(grey.x), Float(grey.y), Float(grey.z))
        var still = StillCapture(buffer: buffer, metadata: metadata, flashFired: job.flash, raw: mosaic.map { raw(of: $0, gains: gains, job: job) })
        still.fusedFrames = fused
        still.fromRecentFrames = job.fromRecentFrames
        return still
    }

    /// The exposure (time, ISO) of a still: the stream's; for a bracket's auto-exposure
    /// photo, its total exposure moved by the bracket's bias less the stream's and divided
    /// as auto exposure divides it (within the format's limits, so far enough it clips); for a
    /// manual one, the bracket's time and ISO.
    static func exposure(_ bracket: StillExposure?, auto: AutoExposure) -> (time: Double, iso: Float) {
        switch bracket {
        case nil:
            return (auto.exposureDuration, auto.iso)
        case .autoBias(let bias)?:
            guard let bias else { return (auto.exposureDuration, auto.iso) }
            var meter = auto
            let streamBias = log2(auto.biasedTarget / auto.target)
            meter.setTotalExposure(auto.totalExposure * exp2(Double(bias) - streamBias))
            return (meter.exposureDuration, meter.iso)
        case .manual(let duration, let iso)?:
            return (duration ?? auto.exposureDuration, iso ?? auto.iso)
        }
    }

    /// Renders `frames − 1` more frames of the burst into scratch and fuses them with the
    /// one in `buffer` (`StillFusion`); returns the frames fused (1 when not fusing).
    private func fuse(
        _ frames: Int, _ settings: Settings, exposure: (time: Double, iso: Float), with renderer: FrameRenderer, into buffer: CVBuffer
    ) -> Int {
        guard frames > 1, StillFusion.canFuse(buffer.format) else { return 1 }
        var fusion = StillFusion(like: buffer)
        fusion.add(buffer)
        let scratch = CVBuffer(format: buffer.format, width: buffer.width, height: buffer.height)
        for index in 1..<frames {
            var burst = settings
            burst.job.noiseFrame = StillFusion.noiseFrame(settings.job.noiseFrame, burstIndex: index)
            _ = draw(burst, exposure: exposure, with: renderer, into: scratch)
            fusion.add(scratch)
        }
        fusion.write(into: buffer)
        return fusion.count
    }

    /// The mosaic with the camera's DNG colour description and the neutral of `gains`.
    private func raw(of mosaic: RawMosaic, gains: SIMD3<Double>, job: StillJob) -> RawStill {
        let model = job.camera.response.model
        func rowMajor(_ m: Matrix3x3) -> [Double] { (0..<9).map { m[$0 / 3, $0 % 3] } }
        let inverse = 1 / gains
        return RawStill(
            mosaic: mosaic, colorMatrix1: rowMajor(model.colorMatrix1), temperature1: model.temperature1,
            colorMatrix2: rowMajor(model.colorMatrix2), temperature2: model.temperature2, asShotNeutral: inverse / inverse.max())
    }

    /// What one still's frames (pre-flashes and the photo) are rendered with, bar exposure.
    private struct Settings {
        var job: StillJob
        var light: SceneLight
        var optics: Optics
        var gains: SIMD3<Double>
        var matrix: ColorTransform
    }

    /// Pre-flash metering: the exposure (time, ISO) that puts the flash-lit scene at auto
    /// exposure's target.
    ///
    /// Starts from the stream's exposure scaled by ambient / (ambient + flash) light (right
    /// if the stream had converged), renders a small frame under the flash, and corrects the
    /// whole error at once (the light stays put, unlike a stream's), up to `preflashCount`
    /// times: a clipped pre-flash understates the error, so it may take more than one. The
    /// exposure is divided as auto exposure divides it, within the format's limits and the
    /// flash pulse.
    private func preflashExposure(_ settings: Settings) -> (time: Double, iso: Float) {
        let job = settings.job
        var meter = job.autoExposure
        var limits = meter.limits
        limits.maxExposure = max(min(limits.maxExposure, FlashLight.pulseDuration), limits.minExposure)
        meter.setLimits(limits)
        meter.speed = 1
        meter.startupSpeed = 1
        meter.maxStep = 16
        let ambient = Double(job.scene.whiteLuminance(at: job.time))
        meter.setTotalExposure(meter.totalExposure * ambient / max(Double(settings.light.luminance), 1e-9))

        let width = min(job.request.width, StillProcessor.preflashWidth)
        let height = max(1, Int((Double(width * job.request.height) / Double(job.request.width)).rounded()))
        let renderer = cachedRenderer(preflashRenderer, for: job, optics: settings.optics)
        preflashRenderer = renderer
        let refilled = renderer.prepare(width: width, height: height, zoom: job.zoom, optics: settings.optics, color: settings.light.color)
        applyLens(settings, to: renderer, refilled: refilled, defocus: preflashDefocus)
        let buffer = CVBuffer(format: job.request.pixelFormat, width: width, height: height)
        for _ in 0..<StillProcessor.preflashCount {
            let statistics = draw(settings, exposure: (meter.exposureDuration, meter.iso), with: renderer, into: buffer)
            meter.update(meanLinear: statistics.meanLinear)
            if abs(meter.targetOffset) < StillProcessor.preflashTolerance { break }
        }
        return (meter.exposureDuration, meter.iso)
    }

    /// Renders one frame of the still's scene at `exposure` into `buffer` (whose size the
    /// renderer was prepared for) and returns its statistics.
    /// With `rawMosaic`, the sensor's codes are also written into a new mosaic, left in
    /// `drawnMosaic`.
    private func draw(
        _ settings: Settings, exposure: (time: Double, iso: Float), with renderer: FrameRenderer, into buffer: CVBuffer,
        rawMosaic: Bool = false
    ) -> FrameStatistics {
        let job = settings.job
        let sensor = Sensor(job.camera.sensor).exposure(
            luminanceScale: settings.light.luminance, optics: settings.optics, exposureDuration: exposure.time,
            iso: exposure.iso, outputWidth: buffer.width)
        renderer.isp.apply(
            ISP.Settings(
                bitDepth: job.camera.sensor.bitDepth, blackLevel: sensor.blackLevel, whiteDN: sensor.whiteDN,
                digitalGain: sensor.digitalGain, whiteBalance: SIMD3<Float>(settings.gains), colorMatrix: settings.matrix,
                range: ISP.range(of: buffer.format), outputBitDepth: buffer.format.isTenBit ? 10 : 8))
        var disc = BallPainter.Disc(
            job.scene.ball(at: job.time), width: buffer.width, height: buffer.height, zoom: job.zoom,
            optics: settings.optics, response: settings.light.color)
        if let state = job.lens {
            let lens = state.lens(optics: settings.optics, pixelPitch: job.camera.sensor.pixelPitch)
            state.adjust(&disc, lens: lens, width: buffer.width, zoom: job.zoom, luminance: settings.light.luminance)
        }
        var frame = FrameRenderer.Frame(index: job.noiseFrame, exposure: sensor, ball: disc)
        if rawMosaic {
            let mosaic = RawMosaic(
                width: buffer.width, height: buffer.height, blackLevel: Int(sensor.blackLevel), whiteLevel: Int(sensor.maxCode))
            drawnMosaic = mosaic
            frame.mosaic = mosaic.samples
        }
        // The motion scene's balls and timeline entries, where they are at the still's time.
        frame.others = job.scene.movingObjects(at: job.time).map {
            var other = BallPainter.Disc(
                $0, width: buffer.width, height: buffer.height, zoom: job.zoom, optics: settings.optics,
                response: settings.light.color)
            if let state = job.lens {
                let lens = state.lens(optics: settings.optics, pixelPitch: job.camera.sensor.pixelPitch)
                state.adjust(&other, lens: lens, width: buffer.width, zoom: job.zoom, luminance: settings.light.luminance)
            }
            return other
        }
        return renderer.render(frame, into: buffer)
    }

    /// Blurs and lights the renderer's layer for the job's lens position and torch (or makes
    /// it sharp and unlit again when the job has none).
    private func applyLens(_ settings: Settings, to renderer: FrameRenderer, refilled: Bool, defocus: Defocus) {
        guard let layer = renderer.layer, let gang = workers else { return }
        defocus.update(
            layer, refilled: refilled, scene: settings.job.scene, workers: gang, replace: { renderer.adopt($0) },
            effect: lensEffect(settings, width: layer.width))
    }

    /// What the still's lens does to a plane at a distance: blur and torch light (none
    /// without a lens state).
    private func lensEffect(_ settings: Settings, width: Int) -> (Float) -> Defocus.Effect {
        let job = settings.job
        let luminance = settings.light.luminance
        let lens = job.lens.map { ($0, $0.lens(optics: settings.optics, pixelPitch: job.camera.sensor.pixelPitch)) }
        return { distance in
            guard let (state, focus) = lens else { return .identity }
            return state.effect(focus, distance: distance, width: width, zoom: job.zoom, luminance: luminance)
        }
    }

    /// `existing` with the job's scene, or a new renderer (and the worker gang, if none yet).
    private func cachedRenderer(_ existing: FrameRenderer?, for job: StillJob, optics: Optics) -> FrameRenderer {
        if let existing {
            existing.setScene(job.scene)
            return existing
        }
        let gang = workers ?? RenderWorkers(name: "\(name).render")
        workers = gang
        return FrameRenderer(scene: job.scene, optics: optics, workers: gang)
    }
}
