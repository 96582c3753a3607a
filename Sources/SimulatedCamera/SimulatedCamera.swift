import CaptureCore
import ColorScience
import Foundation
import Synchronization

/// A physically modelled camera with no hardware behind it: a seeded scene seen through
/// a lens by an EMVA 1288 sensor with a DNG-calibrated colour response, processed by an
/// ISP, with auto exposure (continuous, auto once, locked or custom; see `AutoExposure`)
/// and auto white balance.
///
/// `start` streams frames from a capture thread named "OpenCapture.sim.<uniqueID>" into
/// the sink. With `.realTime` pacing frames follow the host clock; with `.virtual` they
/// come as fast as the sink takes them while timestamps still advance by the frame
/// duration, and the pixels of frame n depend only on the seed, configuration and n.
///
/// While streaming it takes still photos (`captureStill`) at any size up to the sensor's,
/// with the flash on the back cameras; they are rendered on a queue of their own
/// (`StillProcessor`), so the video stream keeps going.
///
/// Thread safety: every member may be called from any thread; state lives behind a
/// mutex. `start`, `update` and `stop` are meant to be serialised by the caller (the
/// session's configuration lock); `stop` may also be called from a sink callback.
package final class SimulatedCamera: CaptureBackend, StillCapturing, @unchecked Sendable {
    package let model: SimulatedCameraModel
    package var descriptor: DeviceDescriptor { model.descriptor }
    package var isConnected: Bool { connected.load(ordering: .acquiring) }
    private let connected = Atomic<Bool>(true)

    private struct State {
        var seed: UInt64
        var pacing: Pacing
        var maximumBufferCount = 6
        var stream: CaptureStream?
    }

    private let state: Mutex<State>
    let controls = StreamControls()
    private let stills: StillProcessor
    /// Heat and system pressure; outlives streams, so a hot camera stays hot across restarts.
    package let thermal = ThermalModel()
    /// Lens position, zoom and torch; outlive streams, as the exposure state does.
    private let lens = LensControls()
    /// What the last stream allocated (layer, pool, render threads), for the next one.
    let resourceCache = StreamResources.Cache()

    package init(model: SimulatedCameraModel, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.model = model
        stills = StillProcessor(name: "OpenCapture.sim.\(model.descriptor.uniqueID).still")
        let seed = environment["OPENCAPTURE_SEED"].flatMap { UInt64($0) } ?? 1
        let pacing: Pacing = environment["OPENCAPTURE_PACING"]?.lowercased() == "virtual" ? .virtual : .realTime
        state = Mutex(State(seed: seed, pacing: pacing))
    }

    /// The scene seed; takes effect at the next `start`. Default: `OPENCAPTURE_SEED` or 1.
    package var seed: UInt64 {
        get { state.withLock { $0.seed } }
        set { state.withLock { $0.seed = newValue } }
    }

    /// How frames are paced; takes effect at the next `start`. Default:
    /// `OPENCAPTURE_PACING` (`virtual` or `realtime`), else real time.
    package var pacing: Pacing {
        get { state.withLock { $0.pacing } }
        set { state.withLock { $0.pacing = newValue } }
    }

    /// The most buffers the stream's pool may hold (at least 3 are made up front); takes
    /// effect at the next `start` or format change.
    package var maximumBufferCount: Int {
        get { state.withLock { $0.maximumBufferCount } }
        set { state.withLock { $0.maximumBufferCount = max(1, newValue) } }
    }

    /// Luminance of the scene's diffuse white in cd/m² (default 200, a bright room);
    /// lower it to dim the scene. Applies from the next frame.
    package var sceneLuminanceScale: Float {
        get { controls.snapshot(takingPending: false).luminanceScale }
        set { controls.modify { $0.luminanceScale = max(0, newValue) } }
    }

    /// Digital zoom (centre crop), 1 ... the format's maximum. Applies from the next frame.
    package var zoomFactor: Double {
        get { controls.snapshot(takingPending: false).zoomFactor }
        set { controls.modify { $0.zoomFactor = max(1, newValue) } }
    }

    /// The light on the scene: correlated colour temperature in kelvin and tint on the
    /// Adobe DNG scale (−150 ... 150; positive is greener). Default 6500 K, tint 0 (on the
    /// Planckian locus; D65 itself is 6504 K, tint +9.8). Applies from the next frame; the
    /// first frame under new light takes longer (the still scene is redrawn for it).
    package var illuminant: (temperature: Double, tint: Double) {
        get {
            let light = controls.snapshot(takingPending: false).illuminant
            return (light.temperature, light.tint)
        }
        set {
            let light = TemperatureTint(temperature: min(max(newValue.temperature, 1000), 100_000), tint: newValue.tint)
            controls.modify { $0.illuminant = light }
        }
    }

    /// Changes the light when frame `frame` begins (by `FrameMetadata.sequence`, which
    /// restarts at 0 with each `start`): of the running stream, or of the next one if none
    /// runs. A frame already passed means the next frame. Scheduled changes apply in the
    /// order of their frames and then update `illuminant`; they make scene timelines (a lamp
    /// switched on at frame 40) deterministic in virtual time.
    package func scheduleIlluminant(temperature: Double, tint: Double, atFrame frame: Int64) {
        let light = TemperatureTint(temperature: min(max(temperature, 1000), 100_000), tint: tint)
        controls.schedule(light, atFrame: frame)
    }

    /// Holds a virtual device on constituent `index` whatever the zoom (nil: switch at the
    /// switch-over factors, the default). Applies from the next frame.
    package var pinnedConstituent: Int? {
        get { controls.snapshot(takingPending: false).pinnedConstituent }
        set { controls.modify { $0.pinnedConstituent = newValue } }
    }

    /// Hand tremor of the camera: about the largest excursion of the view, as a fraction of
    /// the frame width at zoom 1 (0, the default, is a tripod; 0.01 a steady hand). Seeded
    /// and deterministic per frame (`CameraShake`). Applies from the next frame.
    package var shakeAmplitude: Double {
        get { controls.snapshot(takingPending: false).shakeAmplitude }
        set { controls.modify { $0.shakeAmplitude = newValue.isFinite ? max(0, min(newValue, 0.05)) : 0 } }
    }

    /// Queues a control request: it applies at the next frame boundary, or at the next
    /// `start` when not streaming, and the first frame made with it carries its id in
    /// `FrameMetadata.appliedRequest`.
    package func apply(_ request: ControlRequest) {
        controls.enqueue(request)
    }

    /// Model seconds of the thermal model per second of stream or idle time (default 1);
    /// tests raise it to heat and cool the camera quickly.
    package var thermalTimeScale: Double {
        get { thermal.timeScale }
        set { thermal.timeScale = newValue }
    }

    /// Puts the thermal model back at ambient, nominal and real time (for tests).
    package func resetThermalState() { thermal.reset() }

    /// Whether a stream is running.
    package var isStreaming: Bool { state.withLock { $0.stream != nil } }

    package func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) {
        guard isConnected else { throw .deviceWasDisconnected }
        guard descriptor.formats.indices.contains(configuration.formatIndex) else {
            throw .streamFailed("format index \(configuration.formatIndex) out of range for \(descriptor.uniqueID)")
        }
        guard HostClock.seconds(configuration.minFrameDuration) > 0 else {
            throw .streamFailed("invalid minimum frame duration")
        }
        // A second start replaces the running stream.
        stop()
        let settings = state.withLock { ($0.seed, $0.pacing, $0.maximumBufferCount) }
        let stream = CaptureStream(
            camera: model, configuration: configuration, sink: sink, pacing: settings.1, seed: settings.0,
            maximumBufferCount: settings.2, controls: controls, stills: stills, thermal: thermal, lens: lens,
            cache: resourceCache, recentFrames: recentFrames)
        state.withLock { $0.stream = stream }
        stream.launch()
    }

    package func update(_ configuration: StreamConfiguration) {
        guard descriptor.formats.indices.contains(configuration.formatIndex) else { return }
        controls.modify { $0.pendingConfiguration = configuration }
    }

    package func stop() {
        guard let stream = state.withLock({ state -> CaptureStream? in
            defer { state.stream = nil }
            return state.stream
        }) else { return }
        if stream.requestStop() { stream.join() }
    }

    /// Frees what a stopped camera keeps for its next stream: the static layer, the pixel
    /// buffer pool (buffers still held elsewhere live on with their holders) and the render
    /// threads. The next start makes them again. A running stream is not affected. Without
    /// this a stopped camera keeps the memory of its last stream, so a restart at the same
    /// size reuses it instead of allocating it anew.
    package func releaseCachedMemory() {
        resourceCache.purge()
    }

    package var hasFlash: Bool { model.hasFlash }

    /// Zero shutter lag's history of recent frame boundaries (see `RecentFrames`).
    let recentFrames = RecentFrames()

    package func keepRecentFrames(_ keep: Bool, for owner: ObjectIdentifier) {
        recentFrames.keep(keep, for: owner)
    }

    package var recentFrameBytes: Int { recentFrames.heldBytes }

    /// The largest frame or still the camera makes, side by side: what a scene picture is
    /// ever sampled at (the sensor, for the built-in cameras).
    package var largestImageSize: (width: Int, height: Int) {
        let formats = descriptor.formats
        return (
            max(model.sensor.width, formats.map(\.width).max() ?? 0, formats.map(\.maxPhotoWidth).max() ?? 0),
            max(model.sensor.height, formats.map(\.height).max() ?? 0, formats.map(\.maxPhotoHeight).max() ?? 0)
        )
    }

    /// Takes a still at the next frame boundary of the running stream, with that frame's
    /// exposure, white balance, light and scene (or, with `request.flash` on a camera that
    /// has one, lit and metered for the flash; see `StillProcessor`). Its metadata carries
    /// that frame's `sequence` and `presentationTime`. The completion runs on the camera's
    /// still queue; it fails when the camera is not streaming, when the stream stops before
    /// the boundary, or when the size is not within the sensor's.
    package func captureStill(
        _ request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void
    ) {
        guard let stream = state.withLock({ $0.stream }) else {
            return stills.fail(completion, .streamFailed("not streaming"))
        }
        let sensor = model.sensor
        guard (1...sensor.width).contains(request.width), (1...sensor.height).contains(request.height) else {
            let size = "\(request.width)x\(request.height)"
            return stills.fail(completion, .streamFailed("a \(size) still does not fit the \(sensor.width)x\(sensor.height) sensor"))
        }
        if !stream.requestStill(request, completion: completion) {
            stills.fail(completion, .streamFailed("not streaming"))
        }
    }

    /// Whether stills take the stream's static layer when it is the one they would rasterise
    /// and blur themselves (the default; see `StreamLayer`), and how many did. Tests turn it
    /// off to compare the two ways bit for bit.
    package var stillsUseStreamLayer: Bool {
        get { stills.usesStreamLayers.load(ordering: .relaxed) }
        set { stills.usesStreamLayers.store(newValue, ordering: .relaxed) }
    }
    package var stillsFromStreamLayer: Int { stills.stillsFromStreamLayer.load(ordering: .relaxed) }

    /// Simulates unplugging: streaming stops, the sink hears `deviceWasDisconnected`, and
    /// the camera stays disconnected for good (a reconnected camera is a new object, as on iOS).
    package func disconnect() {
        guard connected.exchange(false, ordering: .acquiringAndReleasing) else { return }
        guard let stream = state.withLock({ state -> CaptureStream? in
            defer { state.stream = nil }
            return state.stream
        }) else { return }
        if stream.requestStop() { stream.join() }
        stream.sink.backendDidFail(.deviceWasDisconnected)
    }

    deinit {
        stop()
    }
}
