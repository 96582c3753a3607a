import CaptureCore

/// The lens side of one stream: autofocus, defocus blur, zoom (with ramps) and the torch.
///
/// At each frame boundary `beginFrame` works out the frame's zoom, torch level and lens
/// position, prepares the renderer's static layer (rasterised at the zoom, or at a ramp's
/// reference zoom and resampled), and has `Defocus` blur and light each depth plane;
/// `adjust` does the same for the ball; `endFrame` feeds the frame to autofocus.
/// Used only by the capture thread.
final class LensUnit {
    private let camera: SimulatedCameraModel
    private let controls: LensControls
    private var memory: LensControls.Memory
    private var autoFocus: AutoFocus
    private var formatIndex: Int
    /// Defocus state, resampler and reference builder: the stream's, kept between streams.
    private let resources: StreamResources
    private var defocus: Defocus {
        get { resources.defocus }
        set { resources.defocus = newValue }
    }
    private var resampler: ZoomResampler { resources.resampler }
    private var builder: ZoomReferenceBuilder { resources.builder }
    /// The layer a ramp's frames are resampled from: the renderer's own, or one the builder made.
    private var reference: ZoomReferenceBuilder.Built?
    private var lastResample: (zoom: Double, reference: ObjectIdentifier)?
    /// The current frame's zoom, torch level and the scene luminance it was lit for.
    private(set) var zoom: Double = 1
    private(set) var torchLevel: Float = 0
    private var luminance: Float = 200
    /// The subject area changed during a zoom ramp (continuous autofocus waits for the ramp's end).
    private var changedWhileZooming = false

    init(
        camera: SimulatedCameraModel, formatIndex: Int, controls: LensControls,
        resources: StreamResources = StreamResources(name: "OpenCapture.sim.lens")
    ) {
        self.camera = camera
        self.controls = controls
        self.formatIndex = formatIndex
        self.resources = resources
        memory = controls.current
        autoFocus = AutoFocus(lens: LensUnit.lens(camera, formatIndex), memory: memory.focus)
    }

    /// The focusing lens of `camera` in format `formatIndex`.
    static func lens(_ camera: SimulatedCameraModel, _ formatIndex: Int) -> FocusLens {
        let format = camera.descriptor.formats[formatIndex]
        let focus = camera.descriptor.focus
        return FocusLens(
            optics: camera.optics(for: format), minimumFocusDistance: focus.hasAutoFocus ? focus.minimumFocusDistance : nil,
            pixelPitch: camera.sensor.pixelPitch)
    }

    var isTorchActive: Bool { torchLevel > 0 }

    /// The zoom the stream starts at (to rasterise the first layer at it).
    func initialZoom(zoomFactor: Double, maximum: Double) -> Double {
        min(max(zoomFactor != memory.seenZoomFactor ? zoomFactor : memory.zoom.factor, 1), maximum)
    }

    /// Applies the focus, zoom and torch parts of `request`.
    func apply(_ request: ControlRequest, maximumZoom: Double) {
        if let focus = request.focus { autoFocus.apply(focus) }
        if let zoom = request.zoom { memory.zoom.apply(zoom, maximum: maximumZoom) }
        if let torch = request.torch { memory.torch.apply(torch) }
    }

    /// Sets up frame `pts` (host-clock ns): zoom, torch, focus and the renderer's layer.
    /// `zoomFactor` is the simulation's own zoom control (a change there sets the zoom).
    func beginFrame(
        pts: Int64, zoomFactor: Double, formatIndex newFormat: Int, renderer: FrameRenderer, color: ColorTransform,
        pressureLevel: Int
    ) -> Double {
        if newFormat != formatIndex {
            formatIndex = newFormat
            var focus = autoFocus.memory
            if camera.descriptor.focus.hasAutoFocus == false { focus.lensPosition = 1 }
            autoFocus = AutoFocus(lens: LensUnit.lens(camera, newFormat), memory: focus)
        }
        let format = camera.descriptor.formats[formatIndex]
        if zoomFactor != memory.seenZoomFactor {
            memory.seenZoomFactor = zoomFactor
            memory.zoom.apply(.set(factor: zoomFactor), maximum: format.maxZoomFactor)
        }
        zoom = memory.zoom.advance(to: pts, maximum: format.maxZoomFactor)
        if memory.zoom.isRamping {
            rampFrame(renderer: renderer, color: color, pressureLevel: pressureLevel)
        } else {
            reference = nil
            // The ramp's final layer, made in the background: adopt it instead of rasterising.
            if let ready = builder.take(where: { $0 == zoom }), ready.layer.width == format.width,
                ready.layer.height == format.height, ready.layer.color == color
            {
                renderer.adopt(ready.layer)
                defocus = ready.defocus
            }
            builder.discard()
            prepareLayer(renderer: renderer, rasterZoom: zoom, color: color, pressureLevel: pressureLevel)
        }
        return zoom
    }

    /// A frame of a zoom ramp: resampled from the best reference at hand (rasterising one now
    /// only if none covers the view), while the builder prepares the next one: 1.5× further
    /// along the ramp, or the target itself.
    private func rampFrame(renderer: FrameRenderer, color: ColorTransform, pressureLevel: Int) {
        let format = camera.descriptor.formats[formatIndex]
        let target = memory.zoom.target
        let covers = { (r: Double) in r <= self.zoom * (1 + 1e-9) }
        let enlargement = { (r: Double) in self.zoom / r }
        if let current = reference, !covers(current.zoom) { reference = nil }
        if reference == nil, let layer = renderer.layer, covers(layer.zoom),
            enlargement(layer.zoom) <= ZoomResampler.maximumEnlargement
        {
            reference = ZoomReferenceBuilder.Built(layer: layer, defocus: defocus)
        }
        let currentEnlargement = reference.map { enlargement($0.zoom) } ?? .infinity
        if let ready = builder.take(where: { covers($0) && enlargement($0) < currentEnlargement }),
            ready.layer.width == format.width, ready.layer.height == format.height
        {
            reference = ready
        }
        if reference == nil {
            // Nothing covers the view (a ramp out just began): rasterise now, as far out as helps.
            let rasterZoom = ZoomResampler.reference(current: .infinity, zoom: zoom, target: target)
            prepareLayer(renderer: renderer, rasterZoom: rasterZoom, color: color, pressureLevel: pressureLevel)
            reference = renderer.layer.map { ZoomReferenceBuilder.Built(layer: $0, defocus: defocus) }
        } else {
            updateLight(pressureLevel: pressureLevel, luminance: renderer.scene.luminanceScale)
        }
        guard let reference else { return }
        // Ask for the next reference: 1.5× on toward the target, or the target.
        let next = target >= reference.zoom
            ? min(target, reference.zoom * ZoomResampler.maximumEnlargement)
            : max(target, reference.zoom / ZoomResampler.maximumEnlargement)
        if next != reference.zoom, builder.pendingZoom == nil {
            let lens = autoFocus.lens, position = autoFocus.memory.lensPosition
            let level = torchLevel, light = luminance, width = format.width
            builder.request(
                ZoomReferenceBuilder.Job(
                    zoom: next, width: format.width, height: format.height, scene: renderer.scene,
                    optics: camera.optics(for: format), color: color,
                    effect: { distance in
                        Defocus.Effect(
                            blurRadius: lens.blurRadius(distance: distance, lensPosition: position, width: width, zoom: next),
                            gain: Torch.gain(distance: distance, level: level, luminance: light))
                    }))
        }
        let id = ObjectIdentifier(reference.layer)
        if reference.zoom == zoom {
            renderer.substitute = reference.layer === renderer.layer ? nil : reference.layer
        } else if lastResample?.zoom != zoom || lastResample?.reference != id {
            renderer.substitute = resampler.resample(reference.layer, to: zoom, workers: renderer.workers)
        }
        lastResample = (zoom, id)
    }

    /// The torch level for this frame and the luminance it lights.
    private func updateLight(pressureLevel: Int, luminance scene: Float) {
        luminance = scene
        torchLevel = camera.descriptor.hasTorch ? memory.torch.level(luminance: luminance, pressureLevel: pressureLevel) : 0
    }

    /// Rasterises the renderer's layer at `rasterZoom` if needed and applies defocus, torch
    /// and the zoom ramp's resampling to it. The stream calls it once before its clock
    /// starts, so a blurred first frame is not late.
    func prepareLayer(renderer: FrameRenderer, rasterZoom: Double, color: ColorTransform, pressureLevel: Int) {
        let format = camera.descriptor.formats[formatIndex]
        let refilled = renderer.prepare(
            width: format.width, height: format.height, zoom: rasterZoom, optics: camera.optics(for: format), color: color)
        updateLight(pressureLevel: pressureLevel, luminance: renderer.scene.luminanceScale)
        let lens = autoFocus.lens, position = autoFocus.memory.lensPosition
        let level = torchLevel, light = luminance, width = format.width
        var changed = refilled
        if let sharpOrLent = renderer.layer {
            changed =
                defocus.update(
                    sharpOrLent, refilled: refilled, scene: renderer.scene, workers: renderer.workers,
                    replace: { renderer.adopt($0) }
                ) { distance in
                    Defocus.Effect(
                        blurRadius: lens.blurRadius(distance: distance, lensPosition: position, width: width, zoom: rasterZoom),
                        gain: Torch.gain(distance: distance, level: level, luminance: light))
                } || changed
            let layer = renderer.layer ?? sharpOrLent
            if rasterZoom != zoom {
                if changed || lastResample?.zoom != zoom || lastResample?.reference != ObjectIdentifier(layer) {
                    renderer.substitute = resampler.resample(layer, to: zoom, workers: renderer.workers)
                    lastResample = (zoom, ObjectIdentifier(layer))
                }
            } else {
                renderer.substitute = nil
                lastResample = nil
            }
        }
    }


    /// Blurs a moving object by its own distance and lights it with the torch.
    func adjust(_ disc: inout BallPainter.Disc, width: Int) {
        let radius = autoFocus.lens.blurRadius(
            distance: disc.distance, lensPosition: autoFocus.memory.lensPosition, width: width, zoom: zoom)
        // A disc blurred by a circle of radius r has a rim about 2r wide.
        disc.softness = max(1, 2 * radius)
        disc.color *= Torch.gain(distance: disc.distance, level: torchLevel, luminance: luminance)
    }

    /// The renderer's layer as this frame shows it, lent to a still (marked lent, so the
    /// stream writes it no more); nil before defocus has seen it.
    func lendLayer(of renderer: FrameRenderer) -> StreamLayer? {
        guard let layer = renderer.layer, let effects = defocus.effects(on: layer) else { return nil }
        // Written once: a second still must not write it while the first reads it.
        if !layer.isLent { layer.isLent = true }
        return StreamLayer(
            layer: layer, optics: renderer.optics, scene: renderer.scene, effects: effects,
            planeDistances: defocus.planeDistances)
    }

    /// The lens position and torch of the current frame, for a still taken at it.
    var stillState: LensState {
        let focus = camera.descriptor.focus
        return LensState(
            minimumFocusDistance: focus.hasAutoFocus ? focus.minimumFocusDistance : nil,
            lensPosition: autoFocus.memory.lensPosition, torchLevel: torchLevel)
    }

    /// Publishes the lens state of the frame about to be rendered.
    func stamp(_ metadata: inout FrameMetadata) {
        metadata.lensPosition = autoFocus.memory.lensPosition
        metadata.focusState = autoFocus.memory.state
        metadata.isAdjustingFocus = autoFocus.isAdjusting
        metadata.isRampingVideoZoom = memory.zoom.isRamping
        metadata.torchLevel = torchLevel
    }

    /// The frame was rendered: autofocus measures it; a changed scene restarts continuous autofocus.
    func endFrame(_ buffer: CVBuffer, subjectAreaChanged: Bool) {
        if autoFocus.needsMeasurement {
            autoFocus.measured(FocusMetric.sharpness(of: buffer, around: autoFocus.memory.search.point))
        } else if memory.zoom.isRamping {
            // The view changes by design while zooming: as phones do, refocus once it settles.
            changedWhileZooming = changedWhileZooming || subjectAreaChanged
        } else if subjectAreaChanged || changedWhileZooming {
            changedWhileZooming = false
            autoFocus.sceneChanged()
        }
        memory.focus = autoFocus.memory
        controls.store(memory)
    }
}
