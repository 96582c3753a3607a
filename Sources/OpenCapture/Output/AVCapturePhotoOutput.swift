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

    /// The output's state, split by concern, each part under its own lock: what the app
    /// chose (`PhotoOutputSettings`), the captures (`PhotoCaptureSchedule`: in flight,
    /// processing, waiting in capture order), and the readiness coordinators with the
    /// `captureReadiness` announcements (`PhotoOutputReadiness`). No code holds two of
    /// these locks at once.
    let settingsState = Mutex(PhotoOutputSettings())
    let schedule = Mutex(PhotoCaptureSchedule())
    let readiness = PhotoOutputReadiness()

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

    /// Bayer raw formats the camera delivers, codes in 16-bit words up to the sensor's white
    /// level: the simulated cameras' RGGB mosaic ('rgg4'); a libcamera camera's sensor layout
    /// where its pipeline streams raw; none for V4L2 and PipeWire cameras, which hand out
    /// processed pictures.
    open var availableRawPhotoPixelFormatTypes: [OSType] {
        device?.descriptor.rawPhotoPixelFormats ?? []
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

    /// The largest photo size: by default the active format's largest photo size. Setting a
    /// size that is not one of the source device's `activeFormat.supportedMaxPhotoDimensions`
    /// raises NSInvalidArgumentException, as on iOS ("The dimensions set must match one of
    /// the dimensions returned by AVCaptureDeviceFormat.supportedMaxPhotoDimensions for the
    /// current active format"); on an output with no source device yet any size is kept.
    open var maxPhotoDimensions: CMVideoDimensions {
        get {
            if let chosen = settingsState.withLock({ $0.maxPhotoDimensions }) { return chosen }
            return device?.activeFormat.supportedMaxPhotoDimensions.last ?? CMVideoDimensions(width: 0, height: 0)
        }
        set { enforce { try setMaxPhotoDimensionsChecked(newValue) } }
    }

    /// The most exposures an `AVCapturePhotoBracketSettings` may have: 4 on a simulated
    /// camera (each photo really exposed with its entry), what the backend says on others
    /// (a V4L2 camera with exposure, gain or bias controls: 3, each still taken after its
    /// controls were written), 0 (Apple's value for formats without brackets) otherwise.
    open var maxBracketedCapturePhotoCount: Int {
        guard let device else { return 0 }
        if device.simulation != nil { return Self.simulatedBracketCount }
        return (device.backend as? StillCapturing)?.bracketedStillLimit ?? 0
    }

    /// Whether the lens can be held steady during a bracket: false, no camera here has
    /// optical stabilization. Asking for it (`isLensStabilizationEnabled` on the bracket
    /// settings) makes `capturePhoto(with:delegate:)` raise, as on iOS.
    open var isLensStabilizationDuringBracketedCaptureSupported: Bool { false }

    /// The most quality a capture may ask for (default `.balanced`).
    open var maxPhotoQualityPrioritization: QualityPrioritization {
        get { settingsState.withLock { $0.maxQuality } }
        set { settingsState.withLock { $0.maxQuality = newValue } }
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
        let waits = changeReadiness { $0.begin(capture, uniqueID: settings.uniqueID, responsive: responsive) }
        capture.prepare()
        if !waits { capture.run() }
    }

    // MARK: Members implemented in the extension files (open here, so subclasses can override them)
    //
    // Objective-C imports every member of Apple's class as `open`, and apps' test doubles
    // override them; Swift cannot override what an extension declares, so each member is
    // declared here and forwards to its `…Backing` implementation in the extension file
    // named in the member's topic (+LivePhoto, +ResponsiveCapture, ...).

    /// Declares the kinds of photos the app will take, so the output can get ready for them.
    /// As Apple's header says, it may be called before the output is in a session or the
    /// session runs, and raises nothing. The handler fires on the output's callback queue
    /// once the session runs and no configuration transaction is open: `true` (and
    /// `preparedPhotoSettingsArray` becomes the settings) when every settings passes the
    /// checks `capturePhoto(with:delegate:)` makes (without using it up), else `false` with
    /// `AVError.unsupportedOutputSettings`. A second call makes a first call's handler that
    /// has not fired fire at once with `false` and no error. Prepared settings persist
    /// across starts, stops and configuration changes. Nothing needs allocating ahead here
    /// (encoders are set up per photo), so an empty array only clears the list.
    open func setPreparedPhotoSettingsArray(
        _ preparedPhotoSettingsArray: [AVCapturePhotoSettings], completionHandler: ((Bool, (any Error)?) -> Void)? = nil
    ) {
        setPreparedPhotoSettingsArrayRequest(preparedPhotoSettingsArray, completionHandler: completionHandler)
    }

    /// Whether depth can come with photos: false, no camera here measures depth.
    open var isDepthDataDeliverySupported: Bool { isDepthDataDeliverySupportedBacking }

    /// Always false; true raises, as iOS does without depth.
    open var isDepthDataDeliveryEnabled: Bool {
        get { isDepthDataDeliveryEnabledBacking }
        set { isDepthDataDeliveryEnabledBacking = newValue }
    }

    /// Whether portrait effects mattes can come with photos: false (they need depth).
    open var isPortraitEffectsMatteDeliverySupported: Bool { isPortraitEffectsMatteDeliverySupportedBacking }

    /// Always false; true raises, as iOS does without portrait mattes.
    open var isPortraitEffectsMatteDeliveryEnabled: Bool {
        get { isPortraitEffectsMatteDeliveryEnabledBacking }
        set { isPortraitEffectsMatteDeliveryEnabledBacking = newValue }
    }

    /// Semantic segmentation mattes photos can carry: none.
    open var availableSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] { availableSemanticSegmentationMatteTypesBacking }

    /// Always empty; a type not in `availableSemanticSegmentationMatteTypes` raises.
    open var enabledSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] {
        get { enabledSemanticSegmentationMatteTypesBacking }
        set { enabledSemanticSegmentationMatteTypesBacking = newValue }
    }

    /// Whether a virtual device's constituent pictures are fused: false (the simulated
    /// virtual devices switch between constituents, they do not fuse them).
    open var isVirtualDeviceFusionSupported: Bool { isVirtualDeviceFusionSupportedBacking }

    /// Deprecated name of `isVirtualDeviceFusionSupported`: false.
    @available(*, deprecated, renamed: "isVirtualDeviceFusionSupported")
    open var isDualCameraFusionSupported: Bool { isDualCameraFusionSupportedBacking }

    /// Whether one photo per constituent camera can be delivered: false.
    open var isVirtualDeviceConstituentPhotoDeliverySupported: Bool { isVirtualDeviceConstituentPhotoDeliverySupportedBacking }

    /// Always false; true raises.
    open var isVirtualDeviceConstituentPhotoDeliveryEnabled: Bool {
        get { isVirtualDeviceConstituentPhotoDeliveryEnabledBacking }
        set { isVirtualDeviceConstituentPhotoDeliveryEnabledBacking = newValue }
    }

    /// Deprecated name of `isVirtualDeviceConstituentPhotoDeliverySupported`: false.
    @available(*, deprecated, renamed: "isVirtualDeviceConstituentPhotoDeliverySupported")
    open var isDualCameraDualPhotoDeliverySupported: Bool { isDualCameraDualPhotoDeliverySupportedBacking }

    /// Deprecated name of `isVirtualDeviceConstituentPhotoDeliveryEnabled`: false; true raises.
    @available(*, deprecated, renamed: "isVirtualDeviceConstituentPhotoDeliveryEnabled")
    open var isDualCameraDualPhotoDeliveryEnabled: Bool {
        get { isDualCameraDualPhotoDeliveryEnabledBacking }
        set { isDualCameraDualPhotoDeliveryEnabledBacking = newValue }
    }

    /// Whether `AVCameraCalibrationData` can come with photos: false (it needs constituent
    /// photo delivery).
    open var isCameraCalibrationDataDeliverySupported: Bool { isCameraCalibrationDataDeliverySupportedBacking }

    /// Whether flash photos get red-eye reduction: false, no red-eye processing here.
    open var isAutoRedEyeReductionSupported: Bool { isAutoRedEyeReductionSupportedBacking }

    /// Deprecated (iOS 13: `maxPhotoQualityPrioritization`): whether still image
    /// stabilization is offered. True with a simulated camera, whose `.quality` photos fuse
    /// several frames (resolved settings' `isStillImageStabilizationEnabled`); false for
    /// V4L2 cameras and with none.
    @available(*, deprecated, renamed: "maxPhotoQualityPrioritization")
    open var isStillImageStabilizationSupported: Bool { isStillImageStabilizationSupportedBacking }

    /// Whether content-aware distortion correction is offered: false.
    open var isContentAwareDistortionCorrectionSupported: Bool { isContentAwareDistortionCorrectionSupportedBacking }

    /// Always false; true raises.
    open var isContentAwareDistortionCorrectionEnabled: Bool {
        get { isContentAwareDistortionCorrectionEnabledBacking }
        set { isContentAwareDistortionCorrectionEnabledBacking = newValue }
    }

    /// Whether constant-colour photos (flash-lit estimates under D65) are offered: false.
    open var isConstantColorSupported: Bool { isConstantColorSupportedBacking }

    /// Always false; true raises.
    open var isConstantColorEnabled: Bool {
        get { isConstantColorEnabledBacking }
        set { isConstantColorEnabledBacking = newValue }
    }

    /// Whether the shutter sound can be suppressed: false, Apple's answer "on all other
    /// platforms" than iOS (no shutter sound is played here).
    open var isShutterSoundSuppressionSupported: Bool { isShutterSoundSuppressionSupportedBacking }

    /// Whether photos may be taken at the active format's high-resolution still size
    /// (deprecated in iOS 16 for `maxPhotoDimensions`). Until set it reads true while
    /// `maxPhotoDimensions` is that size (the default). Setting it keeps the value and makes
    /// `maxPhotoDimensions` that size (true) or the format's video size (false), as photos
    /// were before high resolution was asked for; setting `maxPhotoDimensions` afterwards
    /// returns it to following that size.
    @available(*, deprecated, message: "Use maxPhotoDimensions instead.")
    open var isHighResolutionCaptureEnabled: Bool {
        get { isHighResolutionCaptureEnabledBacking }
        set { isHighResolutionCaptureEnabledBacking = newValue }
    }

    /// Whether Live Photos can be taken: on cameras that take stills, where FFmpeg's H.264
    /// encoder can be loaded for the movie.
    open var isLivePhotoCaptureSupported: Bool { isLivePhotoCaptureSupportedBacking }

    /// Whether the pipeline keeps frames for Live Photo movies (default false). Set it
    /// before `startRunning()`: changed while running, the ring starts filling (or is freed)
    /// at once and movies in progress end now, trimmed to what they have. Setting true
    /// where unsupported raises `NSInvalidArgumentException`.
    open var isLivePhotoCaptureEnabled: Bool {
        get { isLivePhotoCaptureEnabledBacking }
        set { isLivePhotoCaptureEnabledBacking = newValue }
    }

    /// Whether Live Photo capture is paused (default false): true trims movies in progress
    /// to now and stops keeping frames; false starts again. Setting true while Live Photo
    /// capture is not enabled raises `NSInvalidArgumentException`; setting true while the
    /// session is not running fails, leaving it false (Apple's header).
    open var isLivePhotoCaptureSuspended: Bool {
        get { isLivePhotoCaptureSuspendedBacking }
        set { isLivePhotoCaptureSuspendedBacking = newValue }
    }

    /// Whether suspension survives the session stopping (iOS 16; default false: stopping
    /// resumes Live Photo capture).
    open var preservesLivePhotoCaptureSuspendedOnSessionStop: Bool {
        get { preservesLivePhotoCaptureSuspendedOnSessionStopBacking }
        set { preservesLivePhotoCaptureSuspendedOnSessionStopBacking = newValue }
    }

    /// Whether movies are cut where the picture jumps (default true where Live Photos are
    /// supported): from the still outwards, a frame whose 4x4 luma zones differ from its
    /// neighbour's by more than 24 of 255 ends the movie on that side. Reads false where
    /// Live Photos are unsupported (the value set is kept for when they are).
    open var isLivePhotoAutoTrimmingEnabled: Bool {
        get { isLivePhotoAutoTrimmingEnabledBacking }
        set { isLivePhotoAutoTrimmingEnabledBacking = newValue }
    }

    /// Codecs for Live Photo movies: HEVC (where FFmpeg has libx265) and H.264; empty
    /// where Live Photos are unsupported.
    open var availableLivePhotoVideoCodecTypes: [AVVideoCodecType] { availableLivePhotoVideoCodecTypesBacking }

    /// The settings of the last preparation done (empty until one is): set when its
    /// completion handler hears `true`, not when `setPreparedPhotoSettingsArray` is called.
    open var preparedPhotoSettingsArray: [AVCapturePhotoSettings] { preparedPhotoSettingsArrayBacking }

    /// Whether a photo taken now would start at once (key-value observable). Changes by
    /// `capturePhoto(with:delegate:)` notify on the calling thread; the sensor part of a
    /// capture ending and its processing ending notify on the output's callback queue
    /// ("OpenCapture.photo"), before the delegate's call for that step; the session
    /// starting or stopping notifies on the thread that starts or stops it.
    open var captureReadiness: CaptureReadiness { captureReadinessBacking }

    /// Whether photos can come from the frame exposing when `capturePhoto` is called (iOS
    /// 17): true on cameras that take stills (the simulated ones), for every format (the
    /// history holds frame descriptions, 8 × `MemoryLayout` of one, a few kilobytes).
    open var isZeroShutterLagSupported: Bool { isZeroShutterLagSupportedBacking }

    /// Whether zero shutter lag is on: by default whenever it is supported (apps linked on
    /// iOS 17 or later). Setting true where it is unsupported raises
    /// `NSInvalidArgumentException`. Turning it off also turns responsive capture and fast
    /// capture prioritization off, which need it.
    open var isZeroShutterLagEnabled: Bool {
        get { isZeroShutterLagEnabledBacking }
        set { isZeroShutterLagEnabledBacking = newValue }
    }

    /// Whether a capture may start while earlier ones are processed (iOS 17): where zero
    /// shutter lag is enabled.
    open var isResponsiveCaptureSupported: Bool { isResponsiveCaptureSupportedBacking }

    /// Whether responsive capture is on (default false). Setting true where it is
    /// unsupported raises `NSInvalidArgumentException`.
    open var isResponsiveCaptureEnabled: Bool {
        get { isResponsiveCaptureEnabledBacking }
        set { isResponsiveCaptureEnabledBacking = newValue }
    }

    /// Whether quality may be lowered automatically during bursts (iOS 17): where
    /// responsive capture is enabled. Apple's header declares it settable; the answer
    /// follows the configuration, so a value set is not kept.
    open var isFastCapturePrioritizationSupported: Bool {
        get { isFastCapturePrioritizationSupportedBacking }
        set { isFastCapturePrioritizationSupportedBacking = newValue }
    }

    /// Whether fast capture prioritization is on (default false): a capture made while
    /// others are processing is taken one quality step lower per capture in progress
    /// (`.quality` → `.balanced` → `.speed`), and its resolved settings say so. Setting
    /// true where it is unsupported raises `NSInvalidArgumentException`.
    open var isFastCapturePrioritizationEnabled: Bool {
        get { isFastCapturePrioritizationEnabledBacking }
        set { isFastCapturePrioritizationEnabledBacking = newValue }
    }

    /// The settings the output judges the scene by, frame by frame, for `isFlashScene`
    /// (default nil: no monitoring). Only `flashMode` matters here.
    open var photoSettingsForSceneMonitoring: AVCapturePhotoSettings? {
        get { photoSettingsForSceneMonitoringBacking }
        set { photoSettingsForSceneMonitoringBacking = newValue }
    }

    /// Whether a photo taken now with `photoSettingsForSceneMonitoring` would fire the
    /// flash: its flash mode is `.auto`, the camera has a flash, the session runs and the
    /// newest frame needed the gain at which the auto flash fires (the same rule photos
    /// follow). Key-value observable; the camera's frames change it (see the observation
    /// extension for the thread).
    open var isFlashScene: Bool { isFlashSceneBacking }

    /// Whether still-image stabilization could be used now: never, since no camera here
    /// offers it (`isStillImageStabilizationSupported` false on iOS's terms).
    open var isStillImageStabilizationScene: Bool { isStillImageStabilizationSceneBacking }

    /// Whether Apple ProRAW photos can be taken: false, as on iPhones without ProRAW (the
    /// simulated cameras give Bayer raw only).
    open var isAppleProRAWSupported: Bool { isAppleProRAWSupportedBacking }

    /// Always false; setting true raises `NSInvalidArgumentException`, as iOS does when
    /// `isAppleProRAWSupported` is false.
    open var isAppleProRAWEnabled: Bool {
        get { isAppleProRAWEnabledBacking }
        set { isAppleProRAWEnabledBacking = newValue }
    }

    /// Whether photos may be delivered later as proxies for the Photos library to finish:
    /// false, since there is no Photos library to finish them.
    open var isAutoDeferredPhotoDeliverySupported: Bool { isAutoDeferredPhotoDeliverySupportedBacking }

    /// Always false; setting true raises `NSInvalidArgumentException`, as iOS does when
    /// `isAutoDeferredPhotoDeliverySupported` is false.
    open var isAutoDeferredPhotoDeliveryEnabled: Bool {
        get { isAutoDeferredPhotoDeliveryEnabledBacking }
        set { isAutoDeferredPhotoDeliveryEnabledBacking = newValue }
    }

    /// Photos being taken now (Linux addition, for tests and progress displays).
    public var photosInFlight: Int { schedule.withLock { $0.inFlight } }

    /// The sensor part of a capture is over (`didCapturePhotoFor` is next). On the callback queue.
    func captureDidExpose(_ uniqueID: Int64) {
        changeReadiness { $0.exposed(uniqueID) }
    }

    /// The capture's photos are delivered: a capture waiting for it may start. On the callback queue.
    func captureDidProcess(_ uniqueID: Int64) {
        let next = changeReadiness { $0.processed(uniqueID) }
        next?.run()
    }

    /// The capture's last callback ran. On the callback queue.
    func captureDidFinish(_ uniqueID: Int64) {
        changeReadiness(finished: uniqueID) { $0.finished(uniqueID) }
    }

    // Members the extension files implement, open here as Apple's are (Swift cannot
    // override what an extension declares); each forwards to its `…Backing`.

    // MARK: AVCapturePhoto+SampleBuffers

    /// Deprecated (iOS 11: `AVCapturePhoto.fileDataRepresentation()`): the JPEG file of a
    /// JPEG sample buffer from the deprecated callback, its EXIF kept; with a preview
    /// sample buffer, the preview (scaled to 320 pixels on its long side) becomes the
    /// EXIF thumbnail. Nil when the buffer holds no JPEG.
    @available(*, deprecated, message: "Use -[AVCapturePhoto fileDataRepresentation]")
    open class func jpegPhotoDataRepresentation(forJPEGSampleBuffer JPEGSampleBuffer: CMSampleBuffer, previewPhotoSampleBuffer: CMSampleBuffer?) -> Data? { jpegPhotoDataRepresentationBacking(forJPEGSampleBuffer: JPEGSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer) }

    /// Deprecated (iOS 11: `AVCapturePhoto.fileDataRepresentation()`): the DNG file of a
    /// raw sample buffer from the deprecated raw callback; nil for any other buffer. The
    /// DNG keeps no preview (the DNG writer stores the mosaic only), so
    /// `previewPhotoSampleBuffer` is not written.
    @available(*, deprecated, message: "Use -[AVCapturePhoto fileDataRepresentation]")
    open class func dngPhotoDataRepresentation(forRawSampleBuffer rawSampleBuffer: CMSampleBuffer, previewPhotoSampleBuffer: CMSampleBuffer?) -> Data? { dngPhotoDataRepresentationBacking(forRawSampleBuffer: rawSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer) }

    // MARK: AVCapturePhotoOutput+PreparedSettings

    /// The async form: returns whether the output prepared (`false` when a later call
    /// superseded this one); throws the error a failed preparation reports.
    @discardableResult
    open func setPreparedPhotoSettingsArray(_ preparedPhotoSettingsArray: [AVCapturePhotoSettings]) async throws -> Bool { try await setPreparedPhotoSettingsArrayBacking(preparedPhotoSettingsArray) }
}
