import Foundation
import Synchronization

/// Takes full-resolution still photos while the session runs.
///
/// Threads: `capturePhoto(with:delegate:)` may be called from any thread; the delegate's
/// callbacks for every photo come in order on one serial queue of the output's
/// ("OpenCapture.photo"), never on the caller's thread or the capture thread.
open class AVCapturePhotoOutput: AVCaptureOutput, @unchecked Sendable {
    /// How much processing a photo may take.
    public enum QualityPrioritization: Int, Sendable, Comparable {
        case speed = 1
        case balanced = 2
        case quality = 3
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    let state = Mutex<State>(State())
    struct State {
        var usedIDs: Set<Int64> = []
        var maxPhotoDimensions: CMVideoDimensions?
        var maxQuality = QualityPrioritization.balanced
        /// Captures from `capturePhoto` to their last callback, and those of them not yet
        /// past `didCapturePhotoFor` (the sensor still exposing), by settings ID.
        var inFlight = 0
        var capturing: Set<Int64> = []
        /// Readiness coordinators of this output (weak).
        var coordinators: [WeakCoordinator] = []
        var prepared: [AVCapturePhotoSettings] = []
        /// Completion handlers of preparations waiting for the session to start.
        var preparationHandlers: [(Bool, (any Error)?) -> Void] = []
        /// The deprecated `isHighResolutionCaptureEnabled`, when set.
        var highResolutionCapture: Bool?
        var sceneMonitoringSettings: AVCapturePhotoSettings?
        /// Measured processing times (didCapture to the last photo), newest last, by the
        /// quality prioritization's raw value and whether the photo was compressed.
        var processingTimes: [ProcessingKind: [Double]] = [:]
        /// Captures whose photos are not delivered yet, and (without responsive capture)
        /// those waiting for them to start.
        var processing: Set<Int64> = []
        var waiting: [PhotoCapture] = []
        /// Zero shutter lag as set (nil: the default, on), responsive capture, fast capture
        /// prioritization, and the camera told to keep its recent frames.
        var zeroShutterLag: Bool?
        var responsiveCapture = false
        var fastCapturePrioritization = false
        var recentFramesCamera: (any StillCapturing)?
        var livePhotoCapture = false
        var livePhotoSuspended = false
        var preservesLivePhotoSuspension = false
        var livePhotoAutoTrimming = true
    }

    struct WeakCoordinator {
        weak var coordinator: AVCapturePhotoOutputReadinessCoordinator?
    }

    struct ProcessingKind: Hashable {
        let quality: Int
        let codec: String?
    }

    /// Delegate calls for every capture of this output happen here, in order.
    let callbackQueue = DispatchQueue(label: "OpenCapture.photo")
    /// Key-value observers of the output.
    let photoKeyValueObservers = KeyValueObserverRegistry(label: "photoOutput")
    /// The Live Photo ring and movies.
    let livePhotos = LivePhotoRecorder()

    public override init() { super.init() }

    override func didAdd(_ connection: AVCaptureConnection) {
        // isFlashScene follows the camera's frames: the device tells its photo outputs.
        connection.device?.core.sceneMonitors.add(self)
    }

    /// The camera's connection; a microphone's, when the session has one, carries a Live
    /// Photo's sound (as on iOS: "to capture Live Photos containing sound, add an audio input").
    var videoConnection: AVCaptureConnection? { connection(with: .video) }

    var device: AVCaptureDevice? { (videoConnection?.inputPorts.first?.input as? AVCaptureDeviceInput)?.device }

    override var acceptedMediaTypes: [AVMediaType] { [.video, .audio] }
    override var takesOneConnectionPerMediaType: Bool { true }

    /// Flash modes the camera offers: off, on and auto with a flash; off without.
    open var supportedFlashModes: [AVCaptureDevice.FlashMode] {
        device?.hasFlash == true ? [.off, .on, .auto] : [.off]
    }

    /// Uncompressed pixel formats a photo can be delivered in.
    open var availablePhotoPixelFormatTypes: [OSType] {
        [kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange]
    }

    /// Codecs a photo can be compressed with: HEVC (in a HEIC file, through libheif and
    /// x265) and JPEG, most efficient first as on iOS.
    open var availablePhotoCodecTypes: [AVVideoCodecType] { [.hevc, .jpeg] }

    /// File types a photo can be formatted for: HEIC and JPEG, and DNG for raw photos
    /// where the camera has them.
    open var availablePhotoFileTypes: [AVFileType] { [.heic, .jpg] + availableRawPhotoFileTypes }

    /// Bayer raw formats the camera delivers: the simulated cameras' RGGB mosaic
    /// ('rgg4', codes in 16-bit words up to the sensor's white level); none for V4L2 cameras,
    /// whose drivers hand out processed pictures.
    open var availableRawPhotoPixelFormatTypes: [OSType] {
        device?.simulation != nil ? [kCVPixelFormatType_14Bayer_RGGB] : []
    }

    /// File types a raw photo can be formatted for: DNG, when there are raw formats.
    open var availableRawPhotoFileTypes: [AVFileType] { availableRawPhotoPixelFormatTypes.isEmpty ? [] : [.dng] }

    /// The raw formats for raw photos in files of `fileType`: all of them for DNG, else none.
    open func supportedRawPhotoPixelFormatTypes(for fileType: AVFileType) -> [OSType] {
        fileType == .dng ? availableRawPhotoPixelFormatTypes : []
    }

    /// Whether `pixelFormat` is a Bayer raw format (the 14-bit Bayer layouts).
    open class func isBayerRAWPixelFormat(_ pixelFormat: OSType) -> Bool {
        [kCVPixelFormatType_14Bayer_RGGB, kCVPixelFormatType_14Bayer_GRBG, kCVPixelFormatType_14Bayer_BGGR, kCVPixelFormatType_14Bayer_GBRG]
            .contains(pixelFormat)
    }

    /// Whether `pixelFormat` is an Apple ProRAW format ('l64r', 64-bit RGBA): never
    /// delivered here, as on cameras without ProRAW.
    open class func isAppleProRAWPixelFormat(_ pixelFormat: OSType) -> Bool { pixelFormat == 0x6C36_3472 }

    /// The codecs for photos in files of `fileType`: HEVC for HEIC, JPEG for JPEG files,
    /// none for other types.
    open func supportedPhotoCodecTypes(for fileType: AVFileType) -> [AVVideoCodecType] {
        switch fileType {
        case .heic: [.hevc]
        case .jpg: [.jpeg]
        default: []
        }
    }

    /// The uncompressed pixel formats for photos in files of `fileType`: none, since no
    /// file type here stores uncompressed processed photos (TIFF is not written).
    open func supportedPhotoPixelFormatTypes(for fileType: AVFileType) -> [OSType] { [] }

    /// The largest photo size: by default the active format's largest photo size.
    open var maxPhotoDimensions: CMVideoDimensions {
        get {
            if let chosen = state.withLock({ $0.maxPhotoDimensions }) { return chosen }
            return device?.activeFormat.supportedMaxPhotoDimensions.last ?? CMVideoDimensions(width: 0, height: 0)
        }
        set {
            state.withLock {
                $0.maxPhotoDimensions = newValue
                $0.highResolutionCapture = nil  // the deprecated switch follows the size again
            }
        }
    }

    /// The most quality a capture may ask for (default `.balanced`).
    open var maxPhotoQualityPrioritization: QualityPrioritization {
        get { state.withLock { $0.maxQuality } }
        set { state.withLock { $0.maxQuality = newValue } }
    }

    /// Takes a photo. Raises when `settings` was used before, or asks for what the output
    /// does not offer (flash mode, size, format, quality), or when no camera is connected.
    open func capturePhoto(with settings: AVCapturePhotoSettings, delegate: any AVCapturePhotoCaptureDelegate) {
        enforce { try capturePhotoChecked(with: settings, delegate: delegate) }
    }

    /// The checked form of `capturePhoto(with:delegate:)` (Linux addition).
    public func capturePhotoChecked(with settings: AVCapturePhotoSettings, delegate: any AVCapturePhotoCaptureDelegate) throws(AVCaptureException) {
        let plan = try validate(settings)
        let estimate = processingTimeEstimate(for: settings)
        let (quality, lowered) = effectiveQuality(for: settings)
        let capture = PhotoCapture(
            output: self, settings: settings, plan: plan, delegate: delegate, processingEstimate: estimate, quality: quality,
            fastCapturePrioritized: lowered)
        // Without responsive capture a capture made while another is processing waits for it.
        let responsive = isResponsiveCaptureEnabled
        var waits = false
        changeReadiness {
            $0.inFlight += 1
            $0.capturing.insert(settings.uniqueID)
            waits = !responsive && !$0.processing.isEmpty
            $0.processing.insert(settings.uniqueID)
            if waits { $0.waiting.append(capture) }
        }
        capture.prepare()
        if !waits { capture.run() }
    }

    /// Photos being taken now (Linux addition, for tests and progress displays).
    public var photosInFlight: Int { state.withLock { $0.inFlight } }

    /// The sensor part of a capture is over (`didCapturePhotoFor` is next). On the callback queue.
    func captureDidExpose(_ uniqueID: Int64) {
        changeReadiness { _ = $0.capturing.remove(uniqueID) }
    }

    /// The capture's photos are delivered: a capture waiting for it may start. On the callback queue.
    func captureDidProcess(_ uniqueID: Int64) {
        var next: PhotoCapture?
        changeReadiness {
            $0.processing.remove(uniqueID)
            if !$0.waiting.isEmpty { next = $0.waiting.removeFirst() }
        }
        next?.run()
    }

    /// The capture's last callback ran. On the callback queue.
    func captureDidFinish(_ uniqueID: Int64) {
        changeReadiness(finished: uniqueID) {
            $0.inFlight -= 1
            _ = $0.capturing.remove(uniqueID)
        }
    }

    /// Apple's checks of `settings` for `selector`; `consuming` marks the settings used
    /// (a capture), so they cannot be used again.
    func validate(
        _ settings: AVCapturePhotoSettings, consuming: Bool = true, selector: String = "capturePhotoWithSettings:delegate:"
    ) throws(AVCaptureException) -> PhotoPlan {
        func invalid(_ text: String) -> AVCaptureException {
            AVCaptureException(.invalidArgument, selectorReason("AVCapturePhotoOutput", selector, text))
        }
        // Preparing may happen before the session runs, when the connection is not active yet.
        guard let connection = videoConnection, connection.isEnabled, connection.isActive || !consuming, let device, device.isConnected else {
            throw invalid("No active and enabled video connection")
        }
        let reused = consuming && state.withLock { state -> Bool in
            if state.usedIDs.contains(settings.uniqueID) { return true }
            state.usedIDs.insert(settings.uniqueID)
            return false
        }
        if reused {
            throw invalid("Settings may not be re-used - create a new AVCapturePhotoSettings (uniqueID \(settings.uniqueID) was used)")
        }
        guard supportedFlashModes.contains(settings.flashMode) else {
            throw invalid("flashMode must be set to a value present in the supportedFlashModes array")
        }
        try validateAuxiliary(settings, invalid)
        guard settings.photoQualityPrioritization <= maxPhotoQualityPrioritization else {
            throw invalid("photoQualityPrioritization may not exceed the output's maxPhotoQualityPrioritization")
        }
        if settings.isHighResolutionPhotoEnabledSetting, !highResolutionCaptureIsEnabled {
            throw invalid("settings.highResolutionPhotoEnabled may not be YES unless self.highResolutionCaptureEnabled is YES")
        }
        if let bracket = settings as? AVCapturePhotoBracketSettings {
            guard (1...max(1, maxBracketedCapturePhotoCount)).contains(bracket.bracketedSettings.count), maxBracketedCapturePhotoCount > 0 else {
                throw invalid("bracketedSettings count (\(bracket.bracketedSettings.count)) must be between 1 and maxBracketedCapturePhotoCount (\(maxBracketedCapturePhotoCount))")
            }
        }
        if let url = settings.livePhotoMovieFileURL {
            guard isLivePhotoCaptureEnabled else {
                throw invalid("settings.livePhotoMovieFileURL may not be set unless self.livePhotoCaptureEnabled is YES")
            }
            guard !isLivePhotoCaptureSuspended else {
                throw invalid("settings.livePhotoMovieFileURL may not be set while self.livePhotoCaptureSuspended is YES")
            }
            guard url.isFileURL else { throw invalid("settings.livePhotoMovieFileURL must be a file URL") }
            guard availableLivePhotoVideoCodecTypes.contains(settings.livePhotoVideoCodecType) else {
                throw invalid("Unsupported livePhotoVideoCodecType \(settings.livePhotoVideoCodecType.rawValue) - use availableLivePhotoVideoCodecTypes")
            }
            if settings.isRawOnly { throw invalid("Live Photo capture requires a processed photo") }
        }
        let limit = maxPhotoDimensions
        var size = settings.maxPhotoDimensions
        if size.width == 0 && size.height == 0 { size = limit }
        guard size.width <= limit.width, size.height <= limit.height, size.width > 0, size.height > 0 else {
            throw invalid("settings.maxPhotoDimensions \(size) exceed the output's maxPhotoDimensions \(limit)")
        }
        let raw = settings.rawPhotoPixelFormatType != 0
        if raw {
            guard availableRawPhotoPixelFormatTypes.contains(settings.rawPhotoPixelFormatType) else {
                throw invalid("Unsupported rawPhotoPixelFormatType - use availableRawPhotoPixelFormatTypes")
            }
            if let fileType = settings.rawFileType, !availableRawPhotoFileTypes.contains(fileType) {
                throw invalid("Unsupported rawFileType \(fileType.rawValue) - use availableRawPhotoFileTypes")
            }
        }
        var pixelFormat = PixelFormat.yuv420BiPlanarFullRange
        var codec: AVVideoCodecType?
        if settings.isRawOnly {
            // Nothing processed: the still is rendered only for its mosaic.
        } else if let requested = settings.pixelFormat {
            guard availablePhotoPixelFormatTypes.contains(requested), let format = PixelFormat(rawValue: requested) else {
                throw invalid("Unsupported pixel format - use availablePhotoPixelFormatTypes")
            }
            pixelFormat = format
        } else if let requested = settings.codec {
            guard availablePhotoCodecTypes.contains(requested) else {
                throw invalid("Unsupported codec \(requested.rawValue) - use availablePhotoCodecTypes")
            }
            codec = requested
        }
        if let fileType = settings.processedFileType {
            guard availablePhotoFileTypes.contains(fileType) else {
                throw invalid("Unsupported processedFileType \(fileType.rawValue) - use availablePhotoFileTypes")
            }
            if let codec, !supportedPhotoCodecTypes(for: fileType).contains(codec) {
                throw invalid("Unsupported codec \(codec.rawValue) for processedFileType \(fileType.rawValue) - use supportedPhotoCodecTypesForFileType:")
            }
        }
        var thumbnail: PhotoPlan.Thumbnail?
        if let format = settings.embeddedThumbnailPhotoFormat {
            guard let thumbnailCodec = AVCapturePhotoSettings.codec(in: format),
                settings.availableEmbeddedThumbnailPhotoCodecTypes.contains(thumbnailCodec)
            else {
                throw invalid("embeddedThumbnailPhotoFormat must contain an AVVideoCodecKey present in availableEmbeddedThumbnailPhotoCodecTypes")
            }
            let requested = try Self.requestedSize(format, AVVideoWidthKey, AVVideoHeightKey, "embeddedThumbnailPhotoFormat", invalid)
            thumbnail = PhotoPlan.Thumbnail(
                codec: thumbnailCodec,
                size: PhotoDerivatives.size(photo: size, requested: requested, defaultLongSide: PhotoDerivatives.thumbnailLongSide))
        }
        var preview: PhotoPlan.Preview?
        if let format = settings.previewPhotoFormat {
            guard let type = format[kCVPixelBufferPixelFormatTypeKey].flatMap(integer).map({ OSType(truncatingIfNeeded: $0) }),
                settings.availablePreviewPhotoPixelFormatTypes.contains(type), let previewFormat = PixelFormat(rawValue: type)
            else {
                throw invalid("previewPhotoFormat must contain a kCVPixelBufferPixelFormatTypeKey present in availablePreviewPhotoPixelFormatTypes")
            }
            let requested = try Self.requestedSize(format, kCVPixelBufferWidthKey, kCVPixelBufferHeightKey, "previewPhotoFormat", invalid)
            preview = PhotoPlan.Preview(
                format: previewFormat,
                size: PhotoDerivatives.size(photo: size, requested: requested, defaultLongSide: PhotoDerivatives.previewLongSide))
        }
        return PhotoPlan(
            device: device, connection: connection, width: Int(size.width), height: Int(size.height), pixelFormat: pixelFormat,
            codec: codec, flashMode: settings.flashMode, thumbnail: thumbnail, preview: preview, raw: raw,
            processed: !settings.isRawOnly)
    }

    /// A format's width and height keys: both or neither, else Apple's exception.
    private static func requestedSize(
        _ format: [String: Any], _ widthKey: String, _ heightKey: String, _ name: String, _ invalid: (String) -> AVCaptureException
    ) throws(AVCaptureException) -> (width: Int, height: Int)? {
        switch (format[widthKey], format[heightKey]) {
        case (nil, nil): return nil
        case (let width?, let height?):
            guard let w = integer(width), let h = integer(height), w > 0, h > 0 else {
                throw invalid("\(name) width and height must be positive numbers")
            }
            return (w, h)
        default: throw invalid("\(name) must specify both a width and a height, or neither")
        }
    }
}

/// What a validated capture will do.
struct PhotoPlan: @unchecked Sendable {
    let device: AVCaptureDevice
    let connection: AVCaptureConnection
    let width: Int
    let height: Int
    let pixelFormat: PixelFormat
    /// The codec of a compressed photo; nil for an uncompressed one.
    let codec: AVVideoCodecType?
    let flashMode: AVCaptureDevice.FlashMode
    /// The embedded thumbnail asked for.
    var thumbnail: Thumbnail?
    /// The preview pixel buffer asked for.
    var preview: Preview?
    /// Whether a raw photo is delivered (first), and a processed one.
    var raw = false
    var processed = true
    /// The still-image connection's `videoScaleAndCropFactor` (1: the still as rendered).
    var scaleAndCrop: CGFloat = 1

    var compressed: Bool { codec != nil }

    struct Thumbnail {
        let codec: AVVideoCodecType
        let size: CMVideoDimensions
    }

    struct Preview {
        let format: PixelFormat
        let size: CMVideoDimensions
    }
}
