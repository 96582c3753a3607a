import Foundation
import Synchronization

/// What one photo capture asks for. Each capture needs its own settings object: reusing
/// one raises, as on iOS (make a copy with `init(from:)`).
open class AVCapturePhotoSettings: NSObject, NSCopying, @unchecked Sendable {
    private static let counter = Atomic<Int64>(0)

    /// Unique for every settings object made in the process.
    public let uniqueID: Int64
    /// The requested format: `[AVVideoCodecKey: AVVideoCodecType.jpeg]` (the default),
    /// `.hevc` for HEIC, or `[kCVPixelBufferPixelFormatTypeKey: <pixel format>]` for an
    /// uncompressed photo.
    public let format: [String: Any]?
    /// The file type asked for in `init(rawPixelFormatType:rawFileType:processedFormat:processedFileType:)`.
    private let requestedFileType: AVFileType?
    /// The Bayer raw pixel format asked for (one of the output's
    /// `availableRawPhotoPixelFormatTypes`), or 0 for no raw photo.
    public let rawPhotoPixelFormatType: OSType
    /// The file type the raw photo is formatted for: the one asked for, else `.dng` for a
    /// raw capture; nil without raw.
    public let rawFileType: AVFileType?
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
        self.uniqueID = uniqueID ?? Self.counter.add(1, ordering: .relaxed).newValue
        format = validFormat
        requestedFileType = processedFileType
        rawPhotoPixelFormatType = rawPixelFormatType
        requestedRawFileType = rawFileType
        self.rawFileType = rawPixelFormatType == 0 ? nil : rawFileType ?? .dng
        isRawOnly = rawOnly
        super.init()
        // Apple's defaults: fusion and stabilization are on unless the capture has a (Bayer)
        // raw photo or is a bracket (set by AVCapturePhotoBracketSettings after this).
        auxiliary.autoProcessing = rawPixelFormatType == 0
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
    public let uniqueID: Int64
    /// The size of the photo.
    public let photoDimensions: CMVideoDimensions
    /// Whether the flash fired.
    public let isFlashEnabled: Bool
    /// Photos delivered for the request: two for raw plus processed, else one.
    public let expectedPhotoCount: Int
    /// The size of the raw photo; zero without raw.
    public let rawPhotoDimensions: CMVideoDimensions
    /// The size of the embedded thumbnail; zero when none was asked for.
    public let embeddedThumbnailDimensions: CMVideoDimensions
    /// The size of the preview pixel buffer; zero when none was asked for.
    public let previewDimensions: CMVideoDimensions
    /// How long processing can be expected to take (iOS 13), zero-based: `start` is the
    /// shortest, `start + duration` the longest. From the output's own measurements of its
    /// last eight photos of the same quality prioritization and codec (exposure end to the
    /// finished file); invalid for the first photo of a kind, which nothing predicts.
    public let photoProcessingTimeRange: CMTimeRange
    /// The size of the Live Photo's movie; zero when the capture is not a Live Photo.
    public let livePhotoMovieDimensions: CMVideoDimensions
    /// Whether fast capture prioritization was used for this capture: it lowered the
    /// quality prioritization because other photos were processing.
    public let isFastCapturePrioritizationEnabled: Bool
    /// The size of a deferred photo proxy: zero (no deferred delivery here).
    public var deferredPhotoProxyDimensions: CMVideoDimensions { CMVideoDimensions(width: 0, height: 0) }
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
        self.photoProcessingTimeRange = photoProcessingTimeRange
        self.livePhotoMovieDimensions = livePhotoMovieDimensions
        self.isFastCapturePrioritizationEnabled = isFastCapturePrioritizationEnabled
        self.uniqueID = uniqueID
        self.photoDimensions = photoDimensions
        self.isFlashEnabled = isFlashEnabled
        self.expectedPhotoCount = expectedPhotoCount
        self.rawPhotoDimensions = rawPhotoDimensions
        self.embeddedThumbnailDimensions = embeddedThumbnailDimensions
        self.previewDimensions = previewDimensions
    }
}
