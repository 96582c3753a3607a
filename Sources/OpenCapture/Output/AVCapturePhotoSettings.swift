import Foundation
import Synchronization

/// What one photo capture asks for. Each capture needs its own settings object: reusing
/// one raises, as on iOS (make a copy with `init(from:)`).
open class AVCapturePhotoSettings: NSObject, NSCopying, @unchecked Sendable {
    private static let counter = Atomic<Int64>(0)

    /// Unique for every settings object made in the process.
    open var uniqueID: Int64 { uniqueIDValue }
    private let uniqueIDValue: Int64
    /// The requested format: `[AVVideoCodecKey: AVVideoCodecType.jpeg]` (the default),
    /// `.hevc` for HEIC, or `[kCVPixelBufferPixelFormatTypeKey: <pixel format>]` for an
    /// uncompressed photo.
    open var format: [String: Any]? { formatValue }
    private let formatValue: [String: Any]?
    /// The file type asked for in `init(rawPixelFormatType:rawFileType:processedFormat:processedFileType:)`.
    private let requestedFileType: AVFileType?
    /// The Bayer raw pixel format asked for (one of the output's
    /// `availableRawPhotoPixelFormatTypes`), or 0 for no raw photo.
    open var rawPhotoPixelFormatType: OSType { rawPhotoPixelFormatTypeValue }
    private let rawPhotoPixelFormatTypeValue: OSType
    /// The file type the raw photo is formatted for: the one asked for, else `.dng` for a
    /// raw capture; nil without raw.
    open var rawFileType: AVFileType? { rawFileTypeValue }
    private let rawFileTypeValue: AVFileType?
    /// Whether to fire the flash (default `.off`); must be in the output's `supportedFlashModes`.
    open var flashMode: AVCaptureDevice.FlashMode = .off
    /// Speed versus quality (default `.balanced`).
    open var photoQualityPrioritization: AVCapturePhotoOutput.QualityPrioritization = .balanced
    /// The largest size wanted; zero means the output's `maxPhotoDimensions`.
    open var maxPhotoDimensions = CMVideoDimensions(width: 0, height: 0)
    /// A thumbnail to embed in the file (default nil: none): `AVVideoCodecKey` from
    /// `availableEmbeddedThumbnailPhotoCodecTypes`, optionally `AVVideoWidthKey` with
    /// `AVVideoHeightKey` (the larger is honoured as the long side, the photo's aspect
    /// kept; without them the long side is 320).
    open var embeddedThumbnailPhotoFormat: [String: Any]?
    /// A scaled copy of the photo delivered as `AVCapturePhoto.previewPixelBuffer` (default
    /// nil: none): `kCVPixelBufferPixelFormatTypeKey` from
    /// `availablePreviewPhotoPixelFormatTypes`, optionally `kCVPixelBufferWidthKey` with
    /// `kCVPixelBufferHeightKey` (sized as thumbnails are; without them the long side is 640).
    open var previewPhotoFormat: [String: Any]?
    /// Where a Live Photo's movie goes (default nil: a still only). A file URL at which
    /// nothing exists; the output's `isLivePhotoCaptureEnabled` must be true (and capture
    /// not suspended), else `capturePhoto` raises. The QuickTime movie appears there only
    /// when complete.
    open var livePhotoMovieFileURL: URL?
    /// The codec of a Live Photo's movie (default `.h264`), one of the output's
    /// `availableLivePhotoVideoCodecTypes`.
    open var livePhotoVideoCodecType: AVVideoCodecType = .h264
    /// The deprecated `isHighResolutionPhotoEnabled`.
    var isHighResolutionPhotoEnabledSetting = false
    /// Depth, mattes, metadata and the other switches of `AVCapturePhotoSettings+Auxiliary.swift`.
    var auxiliary = AuxiliarySettings()

    /// JPEG settings.
    public override convenience init() {
        self.init(validFormat: nil, processedFileType: nil)
    }

    /// Raw-only settings: one Bayer raw photo, delivered as a DNG file.
    public convenience init(rawPixelFormatType: OSType) {
        self.init(rawPixelFormatType: rawPixelFormatType, rawFileType: nil, processedFormat: nil, processedFileType: nil)
    }

    /// Raw plus processed settings: two photos, the raw one first. A nil `processedFormat`
    /// is raw-only.
    public convenience init(rawPixelFormatType: OSType, processedFormat: [String: Any]?) {
        self.init(rawPixelFormatType: rawPixelFormatType, rawFileType: nil, processedFormat: processedFormat, processedFileType: nil)
    }

    /// Raw and processed settings with their file types (nil: the default for the format).
    /// A `rawPixelFormatType` of 0 asks for no raw photo; 0 with a nil `processedFormat`
    /// gives JPEG, as on iOS. The format dictionary follows `init(format:)`'s rules.
    public convenience init(rawPixelFormatType: OSType, rawFileType: AVFileType?, processedFormat: [String: Any]?, processedFileType: AVFileType?) {
        let selector = "photoSettingsWithRawPixelFormatType:rawFileType:processedFormat:processedFileType:"
        enforce { try Self.validate(format: processedFormat, selector: selector) }
        let rawOnly = rawPixelFormatType != 0 && processedFormat == nil
        self.init(
            validFormat: rawOnly ? nil : processedFormat, processedFileType: processedFileType, rawPixelFormatType: rawPixelFormatType,
            rawFileType: rawFileType, rawOnly: rawOnly)
    }

    /// Settings for a format: a codec (`AVVideoCodecKey`, optionally with
    /// `AVVideoCompressionPropertiesKey` holding only `AVVideoQualityKey`) or an
    /// uncompressed pixel format (`kCVPixelBufferPixelFormatTypeKey`, alone). Any other
    /// dictionary raises `NSInvalidArgumentException`, as on iOS.
    public convenience init(format: [String: Any]?) {
        enforce { try Self.validate(format: format, selector: "photoSettingsWithFormat:") }
        self.init(validFormat: format, processedFileType: nil)
    }

    /// The checked form of `init(format:)` (Linux addition): throws what iOS raises.
    public convenience init(checkedFormat format: [String: Any]?) throws(AVCaptureException) {
        try Self.validate(format: format, selector: "photoSettingsWithFormat:")
        self.init(validFormat: format, processedFileType: nil)
    }

    /// A copy of `settings` with a new `uniqueID`, for taking another photo.
    public convenience init(from settings: AVCapturePhotoSettings) {
        self.init(
            validFormat: settings.format, processedFileType: settings.requestedFileType,
            rawPixelFormatType: settings.rawPhotoPixelFormatType, rawFileType: settings.requestedRawFileType, rawOnly: settings.isRawOnly)
        flashMode = settings.flashMode
        photoQualityPrioritization = settings.photoQualityPrioritization
        maxPhotoDimensions = settings.maxPhotoDimensions
        embeddedThumbnailPhotoFormat = settings.embeddedThumbnailPhotoFormat
        previewPhotoFormat = settings.previewPhotoFormat
        livePhotoMovieFileURL = settings.livePhotoMovieFileURL
        livePhotoVideoCodecType = settings.livePhotoVideoCodecType
        isHighResolutionPhotoEnabledSetting = settings.isHighResolutionPhotoEnabledSetting
        auxiliary = settings.auxiliary
    }

    /// A copy keeping `uniqueID` (NSCopying), as the output's copies of settings are; a
    /// copy cannot take another photo once the original has (use `init(from:)` for that).
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = AVCapturePhotoSettings(
            validFormat: format, processedFileType: requestedFileType, rawPixelFormatType: rawPhotoPixelFormatType,
            rawFileType: requestedRawFileType, rawOnly: isRawOnly, uniqueID: uniqueID)
        copy.flashMode = flashMode
        copy.photoQualityPrioritization = photoQualityPrioritization
        copy.maxPhotoDimensions = maxPhotoDimensions
        copy.embeddedThumbnailPhotoFormat = embeddedThumbnailPhotoFormat
        copy.previewPhotoFormat = previewPhotoFormat
        copy.livePhotoMovieFileURL = livePhotoMovieFileURL
        copy.livePhotoVideoCodecType = livePhotoVideoCodecType
        copy.isHighResolutionPhotoEnabledSetting = isHighResolutionPhotoEnabledSetting
        copy.auxiliary = auxiliary
        return copy
    }

    init(
        validFormat: [String: Any]?, processedFileType: AVFileType?, rawPixelFormatType: OSType = 0, rawFileType: AVFileType? = nil,
        rawOnly: Bool = false, uniqueID: Int64? = nil
    ) {
        uniqueIDValue = uniqueID ?? Self.counter.add(1, ordering: .relaxed).newValue
        formatValue = validFormat
        requestedFileType = processedFileType
        rawPhotoPixelFormatTypeValue = rawPixelFormatType
        requestedRawFileType = rawFileType
        rawFileTypeValue = rawPixelFormatType == 0 ? nil : rawFileType ?? .dng
        isRawOnly = rawOnly
        super.init()
        // Apple's defaults: fusion and stabilization are on unless the capture has a (Bayer)
        // raw photo or is a bracket (set by AVCapturePhotoBracketSettings after this).
        auxiliary.autoProcessing = rawPixelFormatType == 0
    }

    /// Whether this photo is taken at the output's high-resolution size (deprecated in
    /// iOS 16 for `maxPhotoDimensions`; default false). True while the output's
    /// `isHighResolutionCaptureEnabled` is false makes `capturePhoto` raise, as on iOS;
    /// the size itself follows `maxPhotoDimensions`, which defaults to the output's.
    @available(*, deprecated, message: "Use maxPhotoDimensions instead.")
    open var isHighResolutionPhotoEnabled: Bool {
        get { isHighResolutionPhotoEnabledBacking }
        set { isHighResolutionPhotoEnabledBacking = newValue }
    }

    // MARK: Members implemented in AVCapturePhotoSettings+Auxiliary.swift (open here, so subclasses can override them)

    /// Whether flash photos get red-eye reduction when the output offers it. Default false:
    /// Apple's default is true only "on platforms that support automatic red-eye
    /// reduction", and `isAutoRedEyeReductionSupported` is false here.
    open var isAutoRedEyeReductionEnabled: Bool {
        get { isAutoRedEyeReductionEnabledBacking }
        set { isAutoRedEyeReductionEnabledBacking = newValue }
    }

    /// Deprecated (iOS 13: `photoQualityPrioritization`): whether still image
    /// stabilization may be used. Default true, false for Bayer raw captures and brackets.
    /// Here it is the multi-frame fusion of `.quality`: false keeps a `.quality` capture
    /// to one frame, and resolved settings' `isStillImageStabilizationEnabled` tells
    /// whether frames were fused.
    @available(*, deprecated, renamed: "photoQualityPrioritization")
    open var isAutoStillImageStabilizationEnabled: Bool {
        get { isAutoStillImageStabilizationEnabledBacking }
        set { isAutoStillImageStabilizationEnabledBacking = newValue }
    }

    /// Whether a virtual device's constituent pictures may be fused. Default true (false for
    /// raw captures and brackets); no effect here, `isVirtualDeviceFusionSupported` is false.
    open var isAutoVirtualDeviceFusionEnabled: Bool {
        get { isAutoVirtualDeviceFusionEnabledBacking }
        set { isAutoVirtualDeviceFusionEnabledBacking = newValue }
    }

    /// Deprecated name of `isAutoVirtualDeviceFusionEnabled`.
    @available(*, deprecated, renamed: "isAutoVirtualDeviceFusionEnabled")
    open var isAutoDualCameraFusionEnabled: Bool {
        get { isAutoDualCameraFusionEnabledBacking }
        set { isAutoDualCameraFusionEnabledBacking = newValue }
    }

    /// Constituent devices to deliver one photo each (default empty). Non-empty raises at
    /// capture: the output's `isVirtualDeviceConstituentPhotoDeliveryEnabled` is false.
    open var virtualDeviceConstituentPhotoDeliveryEnabledDevices: [AVCaptureDevice] {
        get { virtualDeviceConstituentPhotoDeliveryEnabledDevicesBacking }
        set { virtualDeviceConstituentPhotoDeliveryEnabledDevicesBacking = newValue }
    }

    /// Deprecated name of constituent photo delivery (default false; true raises at capture).
    @available(*, deprecated, renamed: "virtualDeviceConstituentPhotoDeliveryEnabledDevices")
    open var isDualCameraDualPhotoDeliveryEnabled: Bool {
        get { isDualCameraDualPhotoDeliveryEnabledBacking }
        set { isDualCameraDualPhotoDeliveryEnabledBacking = newValue }
    }

    /// Whether depth comes with the photo (default false; true raises at capture, the
    /// output's `isDepthDataDeliveryEnabled` being false).
    open var isDepthDataDeliveryEnabled: Bool {
        get { isDepthDataDeliveryEnabledBacking }
        set { isDepthDataDeliveryEnabledBacking = newValue }
    }

    /// Whether delivered depth is written into the file (default true).
    open var embedsDepthDataInPhoto: Bool {
        get { embedsDepthDataInPhotoBacking }
        set { embedsDepthDataInPhotoBacking = newValue }
    }

    /// Whether holes in delivered depth are filled (default true).
    open var isDepthDataFiltered: Bool {
        get { isDepthDataFilteredBacking }
        set { isDepthDataFilteredBacking = newValue }
    }

    /// Whether `AVCameraCalibrationData` comes with the photo (default false; true raises
    /// at capture, `isCameraCalibrationDataDeliverySupported` being false).
    open var isCameraCalibrationDataDeliveryEnabled: Bool {
        get { isCameraCalibrationDataDeliveryEnabledBacking }
        set { isCameraCalibrationDataDeliveryEnabledBacking = newValue }
    }

    /// Whether a portrait effects matte comes with the photo (default false; true raises at
    /// capture, the output's `isPortraitEffectsMatteDeliveryEnabled` being false).
    open var isPortraitEffectsMatteDeliveryEnabled: Bool {
        get { isPortraitEffectsMatteDeliveryEnabledBacking }
        set { isPortraitEffectsMatteDeliveryEnabledBacking = newValue }
    }

    /// Whether a delivered portrait matte is written into the file (default true).
    open var embedsPortraitEffectsMatteInPhoto: Bool {
        get { embedsPortraitEffectsMatteInPhotoBacking }
        set { embedsPortraitEffectsMatteInPhotoBacking = newValue }
    }

    /// Semantic segmentation mattes to deliver (default empty); a type the output has not
    /// enabled raises at capture (the output enables none).
    open var enabledSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] {
        get { enabledSemanticSegmentationMatteTypesBacking }
        set { enabledSemanticSegmentationMatteTypesBacking = newValue }
    }

    /// Whether delivered segmentation mattes are written into the file (default true).
    open var embedsSemanticSegmentationMattesInPhoto: Bool {
        get { embedsSemanticSegmentationMattesInPhotoBacking }
        set { embedsSemanticSegmentationMattesInPhotoBacking = newValue }
    }

    /// Metadata to write into each photo of the request, with Image I/O's keys
    /// (`kCGImagePropertyExifDictionary` "{Exif}", "{TIFF}", "{GPS}", "Orientation" ...):
    /// where the photo's own metadata has the same key (inside those dictionaries, key by
    /// key) the value given replaces it. Default empty. Setting a key Image I/O does not
    /// define raises `NSInvalidArgumentException`, as iOS does. See
    /// `AVCapturePhoto.metadata` for what the file holds.
    open var metadata: [String: Any] {
        get { metadataBacking }
        set { metadataBacking = newValue }
    }

    /// Movie-level metadata for the Live Photo movie (default empty; nil resets it): items
    /// of the QuickTime metadata key space with string values are written into the movie's
    /// 'mdta' metadata beside the content identifier. An item for the content identifier
    /// itself raises `NSInvalidArgumentException` (the output makes that one), as iOS does.
    open var livePhotoMovieMetadata: [AVMetadataItem]! {
        get { livePhotoMovieMetadataBacking }
        set { livePhotoMovieMetadataBacking = newValue }
    }

    /// Codecs for a thumbnail inside a raw photo's DNG: none (the DNG writer stores the
    /// mosaic only), so a `rawEmbeddedThumbnailPhotoFormat` raises at capture.
    open var availableRawEmbeddedThumbnailPhotoCodecTypes: [AVVideoCodecType] { availableRawEmbeddedThumbnailPhotoCodecTypesBacking }

    /// A thumbnail to embed in the raw photo's DNG (default nil). Any format raises at
    /// capture: `availableRawEmbeddedThumbnailPhotoCodecTypes` is empty.
    open var rawEmbeddedThumbnailPhotoFormat: [String: Any]? {
        get { rawEmbeddedThumbnailPhotoFormatBacking }
        set { rawEmbeddedThumbnailPhotoFormatBacking = newValue }
    }

    /// Whether content-aware distortion correction may be used (default false; true raises
    /// at capture, the output's `isContentAwareDistortionCorrectionEnabled` being false).
    open var isAutoContentAwareDistortionCorrectionEnabled: Bool {
        get { isAutoContentAwareDistortionCorrectionEnabledBacking }
        set { isAutoContentAwareDistortionCorrectionEnabledBacking = newValue }
    }

    /// Whether the photo is a constant-colour one (default false; true raises at capture,
    /// the output's `isConstantColorEnabled` being false).
    open var isConstantColorEnabled: Bool {
        get { isConstantColorEnabledBacking }
        set { isConstantColorEnabledBacking = newValue }
    }

    /// Whether a constant-colour capture also delivers an ordinary photo (default false).
    open var isConstantColorFallbackPhotoDeliveryEnabled: Bool {
        get { isConstantColorFallbackPhotoDeliveryEnabledBacking }
        set { isConstantColorFallbackPhotoDeliveryEnabledBacking = newValue }
    }

    /// Whether to suppress the shutter sound (default false; true raises at capture, the
    /// output's `isShutterSoundSuppressionSupported` being false).
    open var isShutterSoundSuppressionEnabled: Bool {
        get { isShutterSoundSuppressionEnabledBacking }
        set { isShutterSoundSuppressionEnabledBacking = newValue }
    }

    /// The raw file type passed in, for copies.
    private let requestedRawFileType: AVFileType?
    /// Raw without a processed photo.
    let isRawOnly: Bool

    /// The file type the processed photo is formatted for: the one asked for, else the
    /// codec's (`.heic` for HEVC, `.jpg` for JPEG); nil for an uncompressed photo.
    open var processedFileType: AVFileType? {
        if isRawOnly { return nil }
        if let requestedFileType { return requestedFileType }
        switch codec {
        case .hevc?: return .heic
        case .jpeg?: return .jpg
        default: return nil
        }
    }

    /// Codecs an embedded thumbnail can use: the photo's own codec (JPEG in EXIF's IFD1 of
    /// a JPEG file, an HEVC thumbnail item in a HEIC file); none for uncompressed photos.
    open var availableEmbeddedThumbnailPhotoCodecTypes: [AVVideoCodecType] {
        codec.map { [$0] } ?? []
    }

    /// Pixel formats a preview can be delivered in, fewest conversions first (the photo
    /// is rendered as full-range 4:2:0).
    open var availablePreviewPhotoPixelFormatTypes: [OSType] {
        [kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_32BGRA]
    }

    /// The codec asked for, if compressed.
    var codec: AVVideoCodecType? {
        if isRawOnly { return nil }
        guard let format else { return .jpeg }
        return Self.codec(in: format)
    }

    /// The `AVVideoCodecKey` of a format dictionary.
    static func codec(in format: [String: Any]) -> AVVideoCodecType? {
        if let codec = format[AVVideoCodecKey] as? AVVideoCodecType { return codec }
        if let codec = format[AVVideoCodecKey] as? String { return AVVideoCodecType(rawValue: codec) }
        return nil
    }

    /// The pixel format asked for, if uncompressed.
    var pixelFormat: OSType? {
        format?[kCVPixelBufferPixelFormatTypeKey].flatMap(integer).map { OSType(truncatingIfNeeded: $0) }
    }

    /// `AVVideoQualityKey` of the compression properties (0 ... 1), if given.
    var compressionQuality: Double? {
        let properties = format?[AVVideoCompressionPropertiesKey] as? [String: Any]
        return (properties?[AVVideoQualityKey]).flatMap { ($0 as? Double) ?? ($0 as? Float).map(Double.init) ?? ($0 as? Int).map(Double.init) }
    }

    /// Apple's rules for a format dictionary (see `init(format:)`).
    static func validate(format: [String: Any]?, selector: String) throws(AVCaptureException) {
        guard let format else { return }
        func invalid(_ text: String) -> AVCaptureException {
            AVCaptureException(.invalidArgument, "*** +[AVCapturePhotoSettings \(selector)] \(text)")
        }
        if let pixelFormat = format[kCVPixelBufferPixelFormatTypeKey] {
            guard format.count == 1 else {
                throw invalid("kCVPixelBufferPixelFormatTypeKey is the only supported key when expressing uncompressed output")
            }
            guard integer(pixelFormat) != nil else { throw invalid("kCVPixelBufferPixelFormatTypeKey must be an NSNumber") }
            return
        }
        guard let codec = format[AVVideoCodecKey] else {
            throw invalid("format dictionary must contain AVVideoCodecKey or kCVPixelBufferPixelFormatTypeKey")
        }
        guard codec is AVVideoCodecType || codec is String else { throw invalid("AVVideoCodecKey must be an AVVideoCodecType") }
        for key in format.keys where key != AVVideoCodecKey && key != AVVideoCompressionPropertiesKey {
            throw invalid("Unsupported key \(key) in format dictionary")
        }
        if let properties = format[AVVideoCompressionPropertiesKey] {
            guard let properties = properties as? [String: Any], properties.keys.allSatisfy({ $0 == AVVideoQualityKey }) else {
                throw invalid("AVVideoCompressionPropertiesKey may only contain AVVideoQualityKey")
            }
            if let quality = properties[AVVideoQualityKey] {
                let value = (quality as? Double) ?? (quality as? Float).map(Double.init) ?? (quality as? Int).map(Double.init)
                guard let value, (0...1).contains(value) else { throw invalid("AVVideoQualityKey must be between 0.0 and 1.0") }
            }
        }
    }
}

/// The settings a capture really used.
open class AVCaptureResolvedPhotoSettings: NSObject, @unchecked Sendable {
    /// The `uniqueID` of the settings asked for.
    open var uniqueID: Int64 { uniqueIDValue }
    private let uniqueIDValue: Int64
    /// The size of the photo.
    open var photoDimensions: CMVideoDimensions { photoDimensionsValue }
    private let photoDimensionsValue: CMVideoDimensions
    /// Whether the flash fired.
    open var isFlashEnabled: Bool { isFlashEnabledValue }
    private let isFlashEnabledValue: Bool
    /// Photos delivered for the request: two for raw plus processed, else one.
    open var expectedPhotoCount: Int { expectedPhotoCountValue }
    private let expectedPhotoCountValue: Int
    /// The size of the raw photo; zero without raw.
    open var rawPhotoDimensions: CMVideoDimensions { rawPhotoDimensionsValue }
    private let rawPhotoDimensionsValue: CMVideoDimensions
    /// The size of the embedded thumbnail; zero when none was asked for.
    open var embeddedThumbnailDimensions: CMVideoDimensions { embeddedThumbnailDimensionsValue }
    private let embeddedThumbnailDimensionsValue: CMVideoDimensions
    /// The size of the preview pixel buffer; zero when none was asked for.
    open var previewDimensions: CMVideoDimensions { previewDimensionsValue }
    private let previewDimensionsValue: CMVideoDimensions
    /// How long processing can be expected to take (iOS 13), zero-based: `start` is the
    /// shortest, `start + duration` the longest. From the output's own measurements of its
    /// last eight photos of the same quality prioritization and codec (exposure end to the
    /// finished file); invalid for the first photo of a kind, which nothing predicts.
    open var photoProcessingTimeRange: CMTimeRange { photoProcessingTimeRangeValue }
    private let photoProcessingTimeRangeValue: CMTimeRange
    /// The size of the Live Photo's movie; zero when the capture is not a Live Photo.
    open var livePhotoMovieDimensions: CMVideoDimensions { livePhotoMovieDimensionsValue }
    private let livePhotoMovieDimensionsValue: CMVideoDimensions
    /// Whether fast capture prioritization was used for this capture: it lowered the
    /// quality prioritization because other photos were processing.
    open var isFastCapturePrioritizationEnabled: Bool { isFastCapturePrioritizationEnabledValue }
    private let isFastCapturePrioritizationEnabledValue: Bool
    // MARK: Members implemented in AVCaptureResolvedPhotoSettings+Auxiliary.swift (open here, so subclasses can override them)

    /// The size of the matte of `semanticSegmentationMatteType`: zero, no mattes are made here.
    open func dimensionsForSemanticSegmentationMatte(ofType semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType)
        -> CMVideoDimensions
    {
        dimensionsForSemanticSegmentationMatteBacking(ofType: semanticSegmentationMatteType)
    }

    /// The size of the DNG's embedded thumbnail: zero, raw photos carry none here.
    open var rawEmbeddedThumbnailDimensions: CMVideoDimensions { rawEmbeddedThumbnailDimensionsBacking }

    /// The size of the portrait effects matte: zero, none is made.
    open var portraitEffectsMatteDimensions: CMVideoDimensions { portraitEffectsMatteDimensionsBacking }

    /// Whether red-eye reduction is applied: false (`isAutoRedEyeReductionSupported` is false).
    open var isRedEyeReductionEnabled: Bool { isRedEyeReductionEnabledBacking }

    /// Deprecated (iOS 13: `photoProcessingTimeRange`): whether still image stabilization
    /// is used: true when the capture fuses several frames (`.quality` on a simulated camera).
    @available(*, deprecated, renamed: "photoProcessingTimeRange")
    open var isStillImageStabilizationEnabled: Bool { isStillImageStabilizationEnabledBacking }

    /// Whether a virtual device's constituent pictures are fused: false.
    open var isVirtualDeviceFusionEnabled: Bool { isVirtualDeviceFusionEnabledBacking }

    /// Deprecated name of `isVirtualDeviceFusionEnabled`: false.
    @available(*, deprecated, renamed: "isVirtualDeviceFusionEnabled")
    open var isDualCameraFusionEnabled: Bool { isDualCameraFusionEnabledBacking }

    /// Whether content-aware distortion correction is applied: false.
    open var isContentAwareDistortionCorrectionEnabled: Bool { isContentAwareDistortionCorrectionEnabledBacking }

    /// The size of a deferred photo proxy: zero (no deferred delivery here).
    open var deferredPhotoProxyDimensions: CMVideoDimensions { CMVideoDimensions(width: 0, height: 0) }
    /// Frames the capture fuses (multi-frame noise reduction of `.quality`), behind the
    /// deprecated `isStillImageStabilizationEnabled`.
    let fusedFrames: Int

    init(
        uniqueID: Int64, photoDimensions: CMVideoDimensions, isFlashEnabled: Bool,
        embeddedThumbnailDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0),
        previewDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0),
        rawPhotoDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0), expectedPhotoCount: Int = 1,
        photoProcessingTimeRange: CMTimeRange = .invalid,
        livePhotoMovieDimensions: CMVideoDimensions = CMVideoDimensions(width: 0, height: 0), isFastCapturePrioritizationEnabled: Bool = false,
        fusedFrames: Int = 1
    ) {
        self.fusedFrames = fusedFrames
        photoProcessingTimeRangeValue = photoProcessingTimeRange
        livePhotoMovieDimensionsValue = livePhotoMovieDimensions
        isFastCapturePrioritizationEnabledValue = isFastCapturePrioritizationEnabled
        uniqueIDValue = uniqueID
        photoDimensionsValue = photoDimensions
        isFlashEnabledValue = isFlashEnabled
        expectedPhotoCountValue = expectedPhotoCount
        rawPhotoDimensionsValue = rawPhotoDimensions
        embeddedThumbnailDimensionsValue = embeddedThumbnailDimensions
        previewDimensionsValue = previewDimensions
    }
}
