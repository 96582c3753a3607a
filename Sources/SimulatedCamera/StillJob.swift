import CaptureCore
import ColorScience

/// What a still needs of one frame boundary: the sensor's whole state at that instant. A
/// simulated frame is a pure function of this state (and the stream's seed), so keeping it
/// keeps the full-quality frame: the still processor renders it at full resolution on
/// demand, where a phone keeps the sensor's full-resolution readouts.
struct StillFrame: Sendable {
    var camera: SimulatedCameraModel
    var scene: Scene
    var time: Double
    var zoom: Double
    var format: DeviceFormatSpec
    var illuminant: TemperatureTint
    var autoExposure: AutoExposure
    var gains: SIMD3<Double>
    var colorMatrix: ColorTransform
    var metadata: FrameMetadata
    var lens: LensState
}

/// Everything a still needs from its stream, copied by the capture thread at the frame
/// boundary the still is taken at: the still queue renders it later, while the stream
/// moves on, and sees exactly the state of that instant.
struct StillJob: Sendable {
    var request: StillRequest
    /// Whether the flash fires (asked for, and the camera has one).
    var flash: Bool
    var camera: SimulatedCameraModel
    /// The scene: seed and ambient luminance.
    var scene: Scene
    /// The frame key that selects the still's sensor noise; negative, so that no video
    /// frame (keys 0, 1, 2 ...) shares it.
    var noiseFrame: Int64
    /// Seconds since the stream started: where the ball is.
    var time: Double
    var zoom: Double
    /// The format streaming when the still was taken.
    var format: DeviceFormatSpec
    /// The ambient light.
    var illuminant: TemperatureTint
    /// The stream's auto exposure at the boundary: its exposure for the frame, its limits.
    var autoExposure: AutoExposure
    /// The stream's white-balance gains and the colour matrix that goes with them.
    var gains: SIMD3<Double>
    var colorMatrix: ColorTransform
    /// The metadata of the video frame that starts at the boundary (timing, exposure, lens,
    /// white balance, light, applied request).
    var metadata: FrameMetadata
    var completion: @Sendable (Result<StillCapture, BackendError>) -> Void
    /// Lens position and torch at the boundary; nil renders sharp and without the torch.
    var lens: LensState? = nil
    /// Whether the boundary was one before the request (zero shutter lag).
    var fromRecentFrames = false
    /// The stream's layer at the request, used if it is the one the still would make.
    var streamLayer: StreamLayer?

    /// The job for `request` at the boundary `frame` describes.
    init(
        _ frame: StillFrame, request: StillRequest, flash: Bool, noiseFrame: Int64,
        completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void, fromRecentFrames: Bool
    ) {
        self.request = request
        self.flash = flash
        camera = frame.camera
        scene = frame.scene
        self.noiseFrame = noiseFrame
        time = frame.time
        zoom = frame.zoom
        format = frame.format
        illuminant = frame.illuminant
        autoExposure = frame.autoExposure
        gains = frame.gains
        colorMatrix = frame.colorMatrix
        metadata = frame.metadata
        self.completion = completion
        lens = frame.lens
        self.fromRecentFrames = fromRecentFrames
    }

    /// The lens as the still sees it: the streaming format's field of view when the aspect
    /// ratios match, else that of the widest format of the still's aspect (a 4:3 photo
    /// from a 16:9 stream sees the full 4:3 field), else the streaming format's.
    var optics: Optics {
        let width = request.width, height = request.height
        func sameAspect(_ f: DeviceFormatSpec) -> Bool { f.width * height == f.height * width }
        if sameAspect(format) { return camera.optics(for: format) }
        let match = camera.descriptor.formats.filter { sameAspect($0) && !$0.isBinned }.max { $0.width < $1.width }
        return camera.optics(for: match ?? format)
    }
}
