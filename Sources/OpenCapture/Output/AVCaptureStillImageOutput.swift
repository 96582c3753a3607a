import Foundation
import Synchronization

/// Takes still images as sample buffers (deprecated in iOS 10 for `AVCapturePhotoOutput`,
/// still used by older code). It runs the photo output's pipeline (`PhotoCapture`): the
/// same still rendering, JPEG encoding and EXIF.
///
/// A session takes either this output or an `AVCapturePhotoOutput`, not both, as on iOS.
/// Threads: completion handlers run on a serial queue of the output's ("OpenCapture.photo"),
/// in the order of the requests; `isCapturingStillImage` observers are told on the thread
/// that starts a capture and on that queue when it ends.
///
/// Apple marks the class deprecated; it is not marked here, so code that still uses it
/// builds without deprecation warnings turned into errors (its documentation says so).
open class AVCaptureStillImageOutput: AVCaptureOutput, @unchecked Sendable {
    /// The photo pipeline the captures run through (never in a session itself).
    private let engine = AVCapturePhotoOutput()
    private let state = Mutex<State>(State())
    private struct State {
        var outputSettings: [String: Any] = [AVVideoCodecKey: AVVideoCodecType.jpeg]
        /// Captures in progress, which hold their adapter (the pipeline holds delegates weakly).
        var inProgress: [Int64: StillImageCapture] = [:]
        var highResolution = false
        var automaticStabilization = true
    }
    let stillKeyValueObservers = KeyValueObserverRegistry(label: "stillImageOutput")

    public override init() { super.init() }

    /// Stills are scaled and centre-cropped (`AVCaptureConnection.videoScaleAndCropFactor`).
    override var maximumScaleAndCropFactor: CGFloat { AVCaptureConnection.stillImageMaxScaleAndCropFactor }

    /// What images look like: `[AVVideoCodecKey: AVVideoCodecType.jpeg]` (the default,
    /// optionally with `AVVideoCompressionPropertiesKey: [AVVideoQualityKey: 0...1]`) or
    /// `[kCVPixelBufferPixelFormatTypeKey: format]` with a format of
    /// `availableImageDataCVPixelFormatTypes`. Anything else raises
    /// `NSInvalidArgumentException`, as on iOS. Non-optional, as Apple declares it
    /// (`setOutputSettingsChecked(nil)` restores the default).
    open var outputSettings: [String: Any] {
        get { state.withLock { $0.outputSettings } }
        set { enforce { try setOutputSettingsChecked(newValue) } }
    }

    /// The checked form of setting `outputSettings` (Linux addition).
    public func setOutputSettingsChecked(_ settings: [String: Any]?) throws(AVCaptureException) {
        let settings = settings ?? [AVVideoCodecKey: AVVideoCodecType.jpeg]
        func invalid(_ text: String) -> AVCaptureException {
            AVCaptureException(.invalidArgument, selectorReason("AVCaptureStillImageOutput", "setOutputSettings:", text))
        }
        do {
            try AVCapturePhotoSettings.validate(format: settings, selector: "setOutputSettings:")
        } catch {
            throw invalid(error.reason.components(separatedBy: "] ").dropFirst().joined(separator: "] "))
        }
        if let codec = AVCapturePhotoSettings.codec(in: settings), !availableImageDataCodecTypes.contains(codec) {
            throw invalid("Unsupported value for AVVideoCodecKey \(codec.rawValue) - use availableImageDataCodecTypes")
        }
        if let format = settings[kCVPixelBufferPixelFormatTypeKey].flatMap(integer).map({ OSType(truncatingIfNeeded: $0) }),
            !availableImageDataCVPixelFormatTypes.contains(NSNumber(value: format))
        {
            throw invalid("Unsupported value for kCVPixelBufferPixelFormatTypeKey - use availableImageDataCVPixelFormatTypes")
        }
        let boxed = UncheckedSendable(settings)
        state.withLock { $0.outputSettings = boxed.value }
    }

    /// Uncompressed formats an image can be delivered in.
    open var availableImageDataCVPixelFormatTypes: [NSNumber] { engine.availablePhotoPixelFormatTypes.map { NSNumber(value: $0) } }

    /// Codecs an image can be compressed with: JPEG (HEVC is the photo output's).
    open var availableImageDataCodecTypes: [AVVideoCodecType] { [.jpeg] }

    /// Whether a capture is in progress (key-value observable).
    open var isCapturingStillImage: Bool { state.withLock { !$0.inProgress.isEmpty } }

    /// Whether images are taken at the active format's high-resolution still size
    /// (default false: the format's video size).
    open var isHighResolutionStillImageOutputEnabled: Bool {
        get { state.withLock { $0.highResolution } }
        set { state.withLock { $0.highResolution = newValue } }
    }

    /// Still-image stabilization: not offered by any camera here.
    open var isStillImageStabilizationSupported: Bool { false }
    /// Whether stabilization is used when available (default true, as on iOS); it never
    /// is available here, so it is never active.
    open var automaticallyEnablesStillImageStabilizationWhenAvailable: Bool {
        get { state.withLock { $0.automaticStabilization } }
        set { state.withLock { $0.automaticStabilization = newValue } }
    }
    /// Always false.
    open var isStillImageStabilizationActive: Bool { false }

    /// Takes an image from `connection` (one of this output's, active and enabled, else
    /// `NSInvalidArgumentException`) and hands the handler a sample buffer: JPEG bytes in
    /// its data buffer (read them with `jpegStillImageNSDataRepresentation(_:)`), or a
    /// pixel buffer in the uncompressed format asked for; or nil and the error.
    open func captureStillImageAsynchronously(
        from connection: AVCaptureConnection, completionHandler handler: @escaping (CMSampleBuffer?, (any Error)?) -> Void
    ) {
        enforce { try captureStillImageChecked(from: connection, completionHandler: handler) }
    }

    /// The checked form of `captureStillImageAsynchronously(from:completionHandler:)` (Linux addition).
    public func captureStillImageChecked(
        from connection: AVCaptureConnection, completionHandler handler: @escaping (CMSampleBuffer?, (any Error)?) -> Void
    ) throws(AVCaptureException) {
        let selector = "captureStillImageAsynchronouslyFromConnection:completionHandler:"
        guard connections.contains(where: { $0 === connection }), connection.isEnabled, connection.isActive, let device = connection.device,
            device.isConnected
        else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureStillImageOutput", selector, "Inactive/invalid connection passed."))
        }
        let format = device.activeFormat
        let size = isHighResolutionStillImageOutputEnabled ? (format.supportedMaxPhotoDimensions.last ?? format.formatDescription.dimensions) : format.formatDescription.dimensions
        let settings = AVCapturePhotoSettings(validFormat: outputSettings, processedFileType: nil)
        let pixelFormat = settings.pixelFormat.flatMap(PixelFormat.init(rawValue:)) ?? .yuv420BiPlanarFullRange
        var plan = PhotoPlan(
            device: device, connection: connection, width: Int(size.width), height: Int(size.height), pixelFormat: pixelFormat,
            codec: settings.codec, flashMode: device.core.torchFlash.flashMode)
        plan.scaleAndCrop = connection.videoScaleAndCropFactor
        // Apple's handler is not @Sendable: like iOS, the output calls it once, on its own
        // queue, and what the closure touches there is the caller's affair.
        let caller = UncheckedSendable(handler)
        let capture = StillImageCapture(handler: { caller.value($0, $1) }) { [weak self] id in self?.finished(id) }
        let watch = KeyValueChange.watch(self, keys: ["capturingStillImage"])
        state.withLock { $0.inProgress[settings.uniqueID] = capture }
        watch?.didChange()
        PhotoCapture(
            output: engine, settings: settings, plan: plan, delegate: capture, processingEstimate: .invalid,
            quality: settings.photoQualityPrioritization, fastCapturePrioritized: false
        ).run()
    }

    private func finished(_ uniqueID: Int64) {
        let watch = KeyValueChange.watch(self, keys: ["capturingStillImage"])
        state.withLock { _ = $0.inProgress.removeValue(forKey: uniqueID) }
        watch?.didChange()
    }

    /// The JPEG bytes of a sample buffer from a JPEG capture (with their EXIF), or nil for
    /// a sample buffer that holds no JPEG.
    open class func jpegStillImageNSDataRepresentation(_ jpegSampleBuffer: CMSampleBuffer) -> Data? {
        guard CMSampleBufferGetFormatDescription(jpegSampleBuffer)?.mediaSubType.rawValue == kCMVideoCodecType_JPEG,
            let block = CMSampleBufferGetDataBuffer(jpegSampleBuffer)
        else { return nil }
        var data = Data(count: block.dataLength)
        let status = data.withUnsafeMutableBytes { bytes in
            block.forEachRun(offset: 0, length: bytes.count) { pointer, length, done in
                bytes.baseAddress!.advanced(by: done).copyMemory(from: pointer, byteCount: length)
            }
        }
        return status == noErr ? data : nil
    }

    // Members the extension files implement, open here as Apple's are (Swift cannot
    // override what an extension declares); each forwards to its `…Backing`.

    // MARK: AVCaptureBracketedStillImageSettings

    /// The most exposures a bracketed capture may take: 0, no bracketing here.
    open var maxBracketedCaptureStillImageCount: Int { maxBracketedCaptureStillImageCountBacking }

    /// Whether the lens can be stabilized during a bracket: false.
    open var isLensStabilizationDuringBracketedCaptureSupported: Bool { isLensStabilizationDuringBracketedCaptureSupportedBacking }

    /// Always false; true raises `NSInvalidArgumentException`, as without support.
    open var isLensStabilizationDuringBracketedCaptureEnabled: Bool {
        get { isLensStabilizationDuringBracketedCaptureEnabledBacking }
        set { isLensStabilizationDuringBracketedCaptureEnabledBacking = newValue }
    }

    /// Prepares for a bracket: raises `NSInvalidArgumentException`, since no bracket may
    /// have more than `maxBracketedCaptureStillImageCount` (0) exposures.
    open func prepareToCaptureStillImageBracket(
        from connection: AVCaptureConnection, withSettingsArray settings: [AVCaptureBracketedStillImageSettings],
        completionHandler handler: @escaping (Bool, (any Error)?) -> Void
    ) { prepareToCaptureStillImageBracketBacking(from: connection, withSettingsArray: settings, completionHandler: handler) }

    /// Takes a bracket: raises `NSInvalidArgumentException`, as `prepareToCaptureStillImageBracket` does.
    open func captureStillImageBracketAsynchronously(
        from connection: AVCaptureConnection, withSettingsArray settings: [AVCaptureBracketedStillImageSettings],
        completionHandler handler: @escaping (CMSampleBuffer?, AVCaptureBracketedStillImageSettings?, (any Error)?) -> Void
    ) { captureStillImageBracketAsynchronouslyBacking(from: connection, withSettingsArray: settings, completionHandler: handler) }
}

/// One still image request: turns the photo pipeline's delegate calls into the completion
/// handler's sample buffer. Called on the pipeline's callback queue.
private final class StillImageCapture: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let handler: @Sendable (CMSampleBuffer?, (any Error)?) -> Void
    private let done: (Int64) -> Void
    private var sampleBuffer: CMSampleBuffer?
    private var failure: (any Error)?

    init(handler: @escaping @Sendable (CMSampleBuffer?, (any Error)?) -> Void, done: @escaping (Int64) -> Void) {
        self.handler = handler
        self.done = done
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        if let error {
            failure = error
            return
        }
        sampleBuffer = photo.processedSampleBuffer
        if sampleBuffer == nil { failure = AVError(.unknown, "The still image could not be made") }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        done(resolvedSettings.uniqueID)
        handler(failure == nil ? sampleBuffer : nil, failure ?? error)
    }
}

/// Key-value observation of `isCapturingStillImage` ("capturingStillImage").
extension AVCaptureStillImageOutput: KeyValueObservableObject {
    package var keyValueObservers: KeyValueObserverRegistry { stillKeyValueObservers }
    package var observableKeyTable: ObservableKeyTable { Self.keyTable }

    private static let keyTable = ObservableKeyTable(observableKeys(AVCaptureStillImageOutput.self))

    static func observableKeys<Root: AVCaptureStillImageOutput>(_: Root.Type) -> [ObservableKey<Root>] {
        [ObservableKey(\Root.isCapturingStillImage, "capturingStillImage")]
    }
}

extension _KeyValueCodingAndObserving where Self: AVCaptureStillImageOutput {
    /// Observes `isCapturingStillImage` (Apple's `observe(_:options:changeHandler:)`).
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        KeyPathObservation.observe(self, keyPath, keys: AVCaptureStillImageOutput.observableKeys(Self.self),
                                   options: options, changeHandler: changeHandler)
    }
}
