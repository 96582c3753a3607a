import Foundation
import Synchronization

/// Orientation of delivered video, the pre-iOS 17 way to ask for rotation.
public enum AVCaptureVideoOrientation: Int, Sendable {
    case portrait = 1
    case portraitUpsideDown = 2
    case landscapeRight = 3
    case landscapeLeft = 4

    /// The clockwise rotation that produces the orientation from the sensor's landscape image.
    var rotationAngle: CGFloat {
        switch self {
        case .landscapeRight: 0
        case .portrait: 90
        case .landscapeLeft: 180
        case .portraitUpsideDown: 270
        }
    }

    init?(rotationAngle: CGFloat) {
        switch rotationAngle {
        case 0: self = .landscapeRight
        case 90: self = .portrait
        case 180: self = .landscapeLeft
        case 270: self = .portraitUpsideDown
        default: return nil
        }
    }
}

/// Video stabilization modes. The simulated cameras stabilise (see
/// `AVCaptureDevice.Format.isVideoStabilizationModeSupported(_:)`); V4L2 cameras do not.
public enum AVCaptureVideoStabilizationMode: Int, Sendable {
    case off = 0
    case standard = 1
    case cinematic = 2
    case cinematicExtended = 3
    case previewOptimized = 4
    case cinematicExtendedEnhanced = 5
    /// Low-latency stabilization (iOS 26): no format supports it here.
    case lowLatency = 6
    /// The most appropriate mode for the format (here `.standard`); never active itself.
    case auto = -1
}

/// Links input ports to an output and carries per-link settings: whether it is enabled,
/// the rotation and the mirroring of delivered buffers.
open class AVCaptureConnection: NSObject, @unchecked Sendable {
    private let storedInputPorts: [AVCaptureInput.Port]
    /// The ports feeding the connection.
    open var inputPorts: [AVCaptureInput.Port] { storedInputPorts }
    private let storedOutput: AVCaptureOutput?
    /// The output the connection feeds.
    open var output: AVCaptureOutput? { storedOutput }
    private let storedAudioChannels: [AVCaptureAudioChannel]
    /// One meter per channel of the connection's audio ports; empty for video.
    open var audioChannels: [AVCaptureAudioChannel] { storedAudioChannels }

    let settings = Mutex<Settings>(Settings())
    /// Key-value observers of the connection.
    let connectionKeyValueObservers = KeyValueObserverRegistry(label: "connection")

    struct Settings {
        var isEnabled = true
        var rotationAngle: CGFloat = 0
        var isVideoMirrored = false
        var automaticallyAdjustsVideoMirroring = true
        var preferredStabilization = AVCaptureVideoStabilizationMode.off
        /// The deprecated frame durations last set on the connection (`.invalid` until set).
        var minFrameDuration = CMTime.invalid
        var maxFrameDuration = CMTime.invalid
        /// The still-image scale-and-crop factor (`videoScaleAndCropFactor`).
        var scaleAndCropFactor: CGFloat = 1
        weak var session: AVCaptureSession?
    }

    private weak var weakVideoPreviewLayer: AVCaptureVideoPreviewLayer?
    /// The preview layer the connection feeds (then `output` is nil). Weak: the layer owns
    /// its connection.
    open var videoPreviewLayer: AVCaptureVideoPreviewLayer? { weakVideoPreviewLayer }

    /// Makes a connection to add with `AVCaptureSession.addConnection(_:)`.
    public init(inputPorts ports: [AVCaptureInput.Port], output: AVCaptureOutput) {
        self.storedInputPorts = ports
        self.storedOutput = output
        storedAudioChannels = AVCaptureAudioChannel.channels(of: ports)
        super.init()
        settings.withLock { $0.isVideoMirrored = automaticMirroring }
    }

    /// Makes a connection from a video port to a preview layer (made with
    /// `init(sessionWithNoConnection:)`), to add with `AVCaptureSession.addConnection(_:)`.
    public init(inputPort port: AVCaptureInput.Port, videoPreviewLayer layer: AVCaptureVideoPreviewLayer) {
        self.storedInputPorts = [port]
        self.storedOutput = nil
        self.weakVideoPreviewLayer = layer
        storedAudioChannels = []
        super.init()
        settings.withLock { $0.isVideoMirrored = automaticMirroring }
    }

    /// The device behind the connection's video port.
    package var device: AVCaptureDevice? { (inputPorts.first?.input as? AVCaptureDeviceInput)?.device }

    /// Front cameras are mirrored when mirroring adjusts automatically, as on iOS.
    private var automaticMirroring: Bool { device?.position == .front }

    package var session: AVCaptureSession? { settings.withLock { $0.session } }
    func attach(to session: AVCaptureSession?) { settings.withLock { $0.session = session } }

    /// Whether media flows through the connection (default true).
    open var isEnabled: Bool {
        get { settings.withLock { $0.isEnabled } }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["enabled", "active"])  // KVO: prior now, after on return
            defer { observed?.didChange() }
            let changed = settings.withLock { settings -> Bool in
                let was = settings.isEnabled
                settings.isEnabled = newValue
                return was != newValue
            }
            // A multi-cam session stops a camera whose connections are all disabled.
            if changed, session?.runsSeveralCameras == true { session?.connectionDidChange(self) }
        }
    }

    /// Whether the connection is enabled and its session is running.
    open var isActive: Bool {
        isEnabled && inputPorts.allSatisfy(\.isEnabled) && (session?.isRunning ?? false)
    }

    // MARK: Rotation

    /// Whether the connection carries pictures (a video or depth port), the only ones that
    /// can be rotated or mirrored: audio and metadata connections cannot, as on iOS.
    private var carriesPictures: Bool {
        inputPorts.contains { $0.mediaType == .video || $0.mediaType == .depthData }
    }

    /// Whether `videoRotationAngle` can take the angle: 0, 90, 180 or 270 on a video
    /// connection; none on an audio or metadata connection.
    open func isVideoRotationAngleSupported(_ videoRotationAngle: CGFloat) -> Bool {
        carriesPictures && AVCaptureVideoOrientation(rotationAngle: videoRotationAngle) != nil
    }

    /// The clockwise rotation, in degrees, applied to delivered buffers (iOS 17).
    /// The buffers are really rotated: 90 turns 1280x720 frames into 720x1280.
    open var videoRotationAngle: CGFloat {
        get { settings.withLock { $0.rotationAngle } }
        set { enforce { try setVideoRotationAngle(newValue) } }
    }

    /// The checked form of setting `videoRotationAngle` (Linux addition).
    public func setVideoRotationAngle(_ angle: CGFloat) throws(AVCaptureException) {
        try setVideoRotationAngle(angle, selector: "setVideoRotationAngle:")
    }

    private func setVideoRotationAngle(_ angle: CGFloat, selector: String) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["videoRotationAngle", "videoOrientation"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        guard carriesPictures else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureConnection", selector,
                    "Video orientation is not supported on this connection - use isVideoOrientationSupported"))
        }
        guard isVideoRotationAngleSupported(angle) else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureConnection", "setVideoRotationAngle:",
                    "Unsupported videoRotationAngle \(angle) - use isVideoRotationAngleSupported: to check (0, 90, 180, 270)"))
        }
        settings.withLock { $0.rotationAngle = angle }
        session?.connectionDidChange(self)
    }

    /// Whether `videoOrientation` can be set: true for video (and depth) connections, false
    /// for audio and metadata ones, as on iOS.
    open var isVideoOrientationSupported: Bool { carriesPictures }

    /// The orientation of delivered buffers (deprecated in iOS 17; same setting as
    /// `videoRotationAngle`). Setting it on a connection without video raises, as on iOS.
    open var videoOrientation: AVCaptureVideoOrientation {
        get { AVCaptureVideoOrientation(rotationAngle: videoRotationAngle) ?? .landscapeRight }
        set { enforce { try setVideoRotationAngle(newValue.rotationAngle, selector: "setVideoOrientation:") } }
    }

    // MARK: Mirroring

    /// Whether buffers can be mirrored: true for video (and depth) connections, false for
    /// audio and metadata ones, as on iOS.
    open var isVideoMirroringSupported: Bool { carriesPictures }

    /// Whether delivered buffers are flipped left to right. Setting it while
    /// `automaticallyAdjustsVideoMirroring` is true raises, as on iOS.
    open var isVideoMirrored: Bool {
        get { settings.withLock { $0.isVideoMirrored } }
        set { enforce { try setVideoMirrored(newValue) } }
    }

    /// The checked form of setting `isVideoMirrored` (Linux addition).
    public func setVideoMirrored(_ mirrored: Bool) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["videoMirrored"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        guard isVideoMirroringSupported else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureConnection", "setVideoMirrored:", "Mirroring is not supported on this connection - use isVideoMirroringSupported"))
        }
        guard !automaticallyAdjustsVideoMirroring else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureConnection", "setVideoMirrored:",
                    "Cannot be set when automaticallyAdjustsVideoMirroring is YES"))
        }
        settings.withLock { $0.isVideoMirrored = mirrored }
        session?.connectionDidChange(self)
    }

    /// When true (the default), `isVideoMirrored` follows the camera: on for front cameras.
    open var automaticallyAdjustsVideoMirroring: Bool {
        get { settings.withLock { $0.automaticallyAdjustsVideoMirroring } }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["automaticallyAdjustsVideoMirroring", "videoMirrored"])  // KVO: prior now, after on return
            defer { observed?.didChange() }
            let automatic = automaticMirroring
            settings.withLock {
                $0.automaticallyAdjustsVideoMirroring = newValue
                if newValue { $0.isVideoMirrored = automatic }
            }
            session?.connectionDidChange(self)
        }
    }

    // MARK: Stabilization and legacy frame durations

    /// The active format of the camera feeding the connection.
    private var sourceFormat: AVCaptureDevice.Format? {
        inputPorts.lazy.compactMap { ($0.input as? AVCaptureDeviceInput)?.device.activeFormat }.first
    }

    /// Whether the connection can stabilise video: a video connection from a camera whose
    /// active format supports a mode other than `.off` (the simulated cameras' do; V4L2
    /// cameras' do not).
    open var isVideoStabilizationSupported: Bool {
        sourceFormat?.isVideoStabilizationModeSupported(.standard) ?? false
    }

    /// The stabilization the app asks for (default `.off`); any mode may be asked for, and
    /// `activeVideoStabilizationMode` says what the format gives. Settable while running
    /// (applies from the next frame).
    open var preferredVideoStabilizationMode: AVCaptureVideoStabilizationMode {
        get { settings.withLock { $0.preferredStabilization } }
        set {
            let changed = settings.withLock { state in
                defer { state.preferredStabilization = newValue }
                return state.preferredStabilization != newValue
            }
            if changed { session?.connectionDidChange(self) }
        }
    }

    /// The stabilization in effect: the preferred mode if the active format supports it,
    /// `.standard` for `.auto` or for an unsupported stronger mode when that is supported,
    /// else `.off`. Never `.auto`. (The camera renders one stream, so the strongest mode
    /// of its connections is what all of them see.)
    open var activeVideoStabilizationMode: AVCaptureVideoStabilizationMode {
        let preferred = preferredVideoStabilizationMode
        guard preferred != .off, let format = sourceFormat else { return .off }
        if preferred != .auto, format.isVideoStabilizationModeSupported(preferred) { return preferred }
        return format.isVideoStabilizationModeSupported(.standard) ? .standard : .off
    }

    /// Whether stabilization is on for the connection (deprecated on iOS 8).
    @available(*, deprecated, message: "Use activeVideoStabilizationMode instead.")
    open var isVideoStabilizationEnabled: Bool { activeVideoStabilizationMode != .off }

    /// Asks for `.standard` stabilization when available (deprecated on iOS 8): true sets
    /// `preferredVideoStabilizationMode` to `.standard`, false to `.off`.
    @available(*, deprecated, message: "Use preferredVideoStabilizationMode instead.")
    open var enablesVideoStabilizationWhenAvailable: Bool {
        get { preferredVideoStabilizationMode != .off }
        set { preferredVideoStabilizationMode = newValue ? .standard : .off }
    }

    /// The rotation and mirroring to apply to each frame, read by the frame router.
    var transform: (rotation: Int, mirrored: Bool, enabled: Bool) {
        settings.withLock { (Int($0.rotationAngle), $0.isVideoMirrored, $0.isEnabled) }
    }

    open override var description: String {
        "<AVCaptureConnection: [\(inputPorts.map(\.mediaType.rawValue).joined(separator: ","))] -> \(output.map { String(describing: type(of: $0)) } ?? (videoPreviewLayer != nil ? "AVCaptureVideoPreviewLayer" : "nil")), enabled: \(isEnabled), angle: \(videoRotationAngle), mirrored: \(isVideoMirrored)>"
    }

    // MARK: Apple-declared members overridable by subclasses (helpers in AVCaptureConnection+FrameDuration.swift)

    /// Whether `videoMinFrameDuration` can be set: for a camera's video connection.
    @available(*, deprecated, message: "Use AVCaptureDevice's activeFormat.videoSupportedFrameRateRanges instead.")
    open var isVideoMinFrameDurationSupported: Bool { framesFromCamera != nil }

    /// Whether `videoMaxFrameDuration` can be set: for a camera's video connection.
    @available(*, deprecated, message: "Use AVCaptureDevice's activeFormat.videoSupportedFrameRateRanges instead.")
    open var isVideoMaxFrameDurationSupported: Bool { framesFromCamera != nil }

    /// The shortest time between frames last set here (default `.invalid`: unlimited).
    @available(*, deprecated, message: "Use AVCaptureDevice's activeVideoMinFrameDuration instead.")
    open var videoMinFrameDuration: CMTime {
        get { settings.withLock { $0.minFrameDuration } }
        set { enforce { try setVideoFrameDuration(newValue, minimum: true) } }
    }

    /// The longest time between frames last set here (default `.invalid`: unlimited).
    @available(*, deprecated, message: "Use AVCaptureDevice's activeVideoMaxFrameDuration instead.")
    open var videoMaxFrameDuration: CMTime {
        get { settings.withLock { $0.maxFrameDuration } }
        set { enforce { try setVideoFrameDuration(newValue, minimum: false) } }
    }

    // MARK: Apple-declared members overridable by subclasses (helpers in AVCaptureConnection+ScaleAndCrop.swift)

    /// The largest value `videoScaleAndCropFactor` takes: `stillImageMaxScaleAndCropFactor`
    /// for the video connection of an `AVCaptureStillImageOutput`, 1 for any other.
    open var videoMaxScaleAndCropFactor: CGFloat {
        inputPorts.contains { $0.mediaType == .video } ? output?.maximumScaleAndCropFactor ?? 1 : 1
    }

    /// The scale-and-crop factor of stills taken through the connection (default 1): at
    /// more than 1 a still is scaled by the factor and centre-cropped to its size. A value
    /// outside 1 ... `videoMaxScaleAndCropFactor` raises `NSRangeException`.
    open var videoScaleAndCropFactor: CGFloat {
        get { settings.withLock { $0.scaleAndCropFactor } }
        set { enforce { try setVideoScaleAndCropFactor(newValue) } }
    }

    /// Whether the camera's intrinsic matrix can be attached to delivered buffers: no (no
    /// camera here is calibrated for it).
    open var isCameraIntrinsicMatrixDeliverySupported: Bool { false }

    /// Whether each delivered buffer carries `kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix`
    /// (default false). Unsupported: setting true raises `NSInvalidArgumentException`, as on
    /// iOS for a connection that does not support it; false is allowed.
    open var isCameraIntrinsicMatrixDeliveryEnabled: Bool {
        get { false }
        set { enforce { try setCameraIntrinsicMatrixDeliveryEnabled(newValue) } }
    }
}
