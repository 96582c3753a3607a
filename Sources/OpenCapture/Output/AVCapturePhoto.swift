import Foundation

/// One captured photo: its file data (JPEG or HEIC with EXIF), its pixels for uncompressed
/// formats, its preview, its timestamp and metadata.
open class AVCapturePhoto: NSObject, @unchecked Sendable {
    private let fileData: Data?
    /// What the file was made from, to make it again with a customizer; nil for an
    /// uncompressed photo or a failed capture.
    let source: PhotoSource?
    private let pixels: CVPixelBuffer?
    private let preview: CVPixelBuffer?
    private let time: CMTime
    private let properties: [String: Any]
    private let resolved: AVCaptureResolvedPhotoSettings
    private let index: Int
    private let raw: Bool
    private let deviceType: AVCaptureDevice.DeviceType?
    private let bracketEntry: AVCaptureBracketedStillImageSettings?
    private let bracketIndex: Int

    // Apple's members are open (Objective-C imports every member so), so test doubles can
    // override them; they read the stored values above.

    /// The photo's pixels: for uncompressed settings the processed picture; for the raw
    /// photo the sensor's Bayer mosaic (`kCVPixelFormatType_14Bayer_RGGB`, one 16-bit word
    /// per photosite holding its code, black level included, as the DNG stores it); nil
    /// for a compressed photo, as on iOS.
    open var pixelBuffer: CVPixelBuffer? { pixels }
    /// A scaled copy of the photo in the settings' `previewPhotoFormat`, or nil if none was asked for.
    open var previewPixelBuffer: CVPixelBuffer? { preview }
    /// When the photo was taken, on the session's synchronization clock.
    open var timestamp: CMTime { time }
    /// EXIF and TIFF metadata, shaped like Apple's: "Orientation", "{Exif}", "{TIFF}".
    open var metadata: [String: Any] { properties }
    /// The settings the capture used.
    open var resolvedSettings: AVCaptureResolvedPhotoSettings { resolved }
    /// The photo's 1-based index among the request's `resolvedSettings.expectedPhotoCount`
    /// photos: for raw plus processed, 1 for the raw photo (delivered first) and 2 for the
    /// processed one; a bracket counts on through its exposures.
    open var photoCount: Int { index }
    /// Whether this is the raw (Bayer) photo of a raw capture, whose file is a DNG.
    open var isRawPhoto: Bool { raw }
    /// The type of the camera that took the photo: the connected device's `deviceType`
    /// (no constituent photo delivery here); nil for a photo no camera took (a failed capture).
    open var sourceDeviceType: AVCaptureDevice.DeviceType? { deviceType }
    /// The bracket entry this photo was exposed with, nil when the capture is not a bracket.
    open var bracketSettings: AVCaptureBracketedStillImageSettings? { bracketEntry }
    /// The photo's 1-based place in its bracket (the raw and processed photos of one
    /// exposure share it); 0 for a photo not in a bracket, as on iOS.
    open var sequenceCount: Int { bracketIndex }
    /// The lens stabilization during the capture: `.unsupported`, Apple's answer where
    /// optical stabilization is unsupported (no camera here has it).
    open var lensStabilizationStatus: AVCaptureDevice.LensStabilizationStatus { .unsupported }

    init(
        fileData: Data?, source: PhotoSource? = nil, pixelBuffer: CVPixelBuffer?, previewPixelBuffer: CVPixelBuffer? = nil,
        timestamp: CMTime, metadata: [String: Any], resolvedSettings: AVCaptureResolvedPhotoSettings, isRawPhoto: Bool = false,
        photoCount: Int = 1, sourceDeviceType: AVCaptureDevice.DeviceType? = nil,
        bracketSettings: AVCaptureBracketedStillImageSettings? = nil, sequenceCount: Int = 0
    ) {
        raw = isRawPhoto
        index = photoCount
        deviceType = sourceDeviceType
        self.fileData = fileData
        self.source = source
        pixels = pixelBuffer
        preview = previewPixelBuffer
        time = timestamp
        properties = metadata
        resolved = resolvedSettings
        bracketEntry = bracketSettings
        bracketIndex = sequenceCount
    }

    /// The embedded thumbnail's format as resolved (codec, width, height), or nil when the
    /// file has none.
    open var embeddedThumbnailPhotoFormat: [String: Any]? {
        guard let source, let thumbnail = source.thumbnail, let codec = source.thumbnailCodec else { return nil }
        return [AVVideoCodecKey: codec, AVVideoWidthKey: thumbnail.width, AVVideoHeightKey: thumbnail.height]
    }

    /// The photo as a file: JPEG or HEIC with EXIF (and the thumbnail asked for) for
    /// compressed settings, DNG for the raw photo; nil for uncompressed settings (read
    /// `pixelBuffer` instead).
    open func fileDataRepresentation() -> Data? { fileData }

    /// The photo as a file with the customizer's replacement metadata and thumbnail; nil
    /// for an uncompressed photo or when the file cannot be made. Compresses the photo
    /// again, on the calling thread.
    open func fileDataRepresentation(with customizer: any AVCapturePhotoFileDataRepresentationCustomizer) -> Data? {
        guard let source else { return nil }
        let replacement = customizer.replacementMetadata(for: self)
        var format: NSDictionary? = embeddedThumbnailPhotoFormat.map { NSDictionary(dictionary: $0) }
        let thumbnail = withUnsafeMutablePointer(to: &format) {
            customizer.replacementEmbeddedThumbnailPixelBuffer(withPhotoFormat: AutoreleasingUnsafeMutablePointer($0), for: self)
        }?.takeUnretainedValue()
        var thumbnailFormat: [String: Any] = [:]
        for case let (key as String, value) in format ?? NSDictionary() { thumbnailFormat[key] = value }
        return try? source.file(metadata: replacement, thumbnail: thumbnail, thumbnailFormat: thumbnailFormat)
    }

    // MARK: Members implemented in AVCapturePhoto+Conversions.swift (open here, so subclasses can override them)

    /// The primary photo as a new `CGImage`, made on every call: a JPEG or HEIC photo is
    /// decoded from its file (libjpeg-turbo, libheif), an uncompressed one converted from
    /// its pixel buffer. 8-bit BGRA (`bitmapInfo` `.byteOrder32Little` with
    /// `.noneSkipFirst`), the pixels as stored: EXIF orientation is not applied, as on iOS.
    /// Nil for a raw photo (as on iOS) and for a failed capture.
    open func cgImageRepresentation() -> CGImage? { cgImageRepresentationBacking() }

    /// The preview as a new RGB `CGImage` (laid out as `cgImageRepresentation()`'s), nil
    /// when the settings asked for no `previewPhotoFormat`.
    open func previewCGImageRepresentation() -> CGImage? { previewCGImageRepresentationBacking() }

    /// Depth with the photo: nil, no camera here measures depth (`isDepthDataDeliverySupported` is false).
    open var depthData: AVDepthData? { nil }
    /// The portrait effects matte: nil (`isPortraitEffectsMatteDeliverySupported` is false).
    open var portraitEffectsMatte: AVPortraitEffectsMatte? { nil }
    /// The matte of `semanticSegmentationMatteType`: nil, no mattes are made here.
    open func semanticSegmentationMatte(for semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType) -> AVSemanticSegmentationMatte? { nil }
    /// The camera's calibration: nil (`isCameraCalibrationDataDeliverySupported` is false).
    open var cameraCalibrationData: AVCameraCalibrationData? { nil }
    /// Constant colour's confidence map: nil, this is never a constant-colour photo.
    open var constantColorConfidenceMap: CVPixelBuffer? { nil }
    /// Constant colour's overall confidence: 0, Apple's value for other photos.
    open var constantColorCenterWeightedMeanConfidenceLevel: Float { 0 }
    /// Whether this is a constant-colour capture's fallback photo: false.
    open var isConstantColorFallbackPhoto: Bool { false }

    /// Deprecated (iOS 12: `fileDataRepresentation(with:)`): the file with replacement
    /// metadata (the photo's own to keep it, nil to strip it) and thumbnail (the format and
    /// a buffer to replace it; the photo's format and no buffer to keep it; neither to
    /// strip it). Depth is not written (there is none).
    @available(*, deprecated, renamed: "fileDataRepresentation(with:)")
    open func fileDataRepresentation(
        withReplacementMetadata replacementMetadata: [String: Any]?, replacementEmbeddedThumbnailPhotoFormat: [String: Any]?,
        replacementEmbeddedThumbnailPixelBuffer: CVPixelBuffer?, replacementDepthData: AVDepthData?
    ) -> Data? {
        fileDataRepresentationBacking(
            withReplacementMetadata: replacementMetadata, replacementEmbeddedThumbnailPhotoFormat: replacementEmbeddedThumbnailPhotoFormat,
            replacementEmbeddedThumbnailPixelBuffer: replacementEmbeddedThumbnailPixelBuffer, replacementDepthData: replacementDepthData)
    }
}
