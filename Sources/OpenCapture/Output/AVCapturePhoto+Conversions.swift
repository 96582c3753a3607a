import Foundation
import ImageOps
import MediaIO

/// The photo as Core Graphics images, and what a photo carries only where the camera
/// measures it (depth, mattes, calibration, constant colour: never here).
extension AVCapturePhoto {
    /// The primary photo as a new `CGImage`, made on every call: a JPEG or HEIC photo is
    /// decoded from its file (libjpeg-turbo, libheif), an uncompressed one converted from
    /// its pixel buffer. 8-bit BGRA (`bitmapInfo` `.byteOrder32Little` with
    /// `.noneSkipFirst`), the pixels as stored: EXIF orientation is not applied, as on iOS.
    /// Nil for a raw photo (as on iOS) and for a failed capture.
    public func cgImageRepresentation() -> CGImage? {
        guard !isRawPhoto else { return nil }
        if let pixelBuffer { return Self.cgImage(bgra: PhotoDerivatives.converted(pixelBuffer, to: .bgra)) }
        guard let source, let data = fileDataRepresentation() else { return nil }
        return Self.cgImage(bgra: try? source.codec == .hevc ? HEIFDecoder.decode(data) : JPEGEncoder.decode(data))
    }

    /// The preview as a new RGB `CGImage` (laid out as `cgImageRepresentation()`'s), nil
    /// when the settings asked for no `previewPhotoFormat`.
    public func previewCGImageRepresentation() -> CGImage? {
        guard let previewPixelBuffer else { return nil }
        return Self.cgImage(bgra: PhotoDerivatives.converted(previewPixelBuffer, to: .bgra))
    }

    private static func cgImage(bgra buffer: CVPixelBuffer?) -> CGImage? {
        guard let buffer else { return nil }
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        guard let base = CVPixelBufferGetBaseAddress(buffer) else { return nil }
        let bytesPerRow = CVPixelBufferGetBytesPerRow(buffer)
        return CGImage(
            width: buffer.width, height: buffer.height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: bytesPerRow,
            bitmapInfo: CGBitmapInfo(rawValue: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.noneSkipFirst.rawValue),
            bytes: Data(bytes: base, count: bytesPerRow * buffer.height))
    }

    /// Depth with the photo: nil, no camera here measures depth (`isDepthDataDeliverySupported` is false).
    public var depthData: AVDepthData? { nil }
    /// The portrait effects matte: nil (`isPortraitEffectsMatteDeliverySupported` is false).
    public var portraitEffectsMatte: AVPortraitEffectsMatte? { nil }
    /// The matte of `semanticSegmentationMatteType`: nil, no mattes are made here.
    public func semanticSegmentationMatte(for semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType) -> AVSemanticSegmentationMatte? { nil }
    /// The camera's calibration: nil (`isCameraCalibrationDataDeliverySupported` is false).
    public var cameraCalibrationData: AVCameraCalibrationData? { nil }
    /// Constant colour's confidence map: nil, this is never a constant-colour photo.
    public var constantColorConfidenceMap: CVPixelBuffer? { nil }
    /// Constant colour's overall confidence: 0, Apple's value for other photos.
    public var constantColorCenterWeightedMeanConfidenceLevel: Float { 0 }
    /// Whether this is a constant-colour capture's fallback photo: false.
    public var isConstantColorFallbackPhoto: Bool { false }

    /// Deprecated (iOS 12: `fileDataRepresentation(with:)`): the file with replacement
    /// metadata (the photo's own to keep it, nil to strip it) and thumbnail (the format and
    /// a buffer to replace it; the photo's format and no buffer to keep it; neither to
    /// strip it). Depth is not written (there is none).
    @available(*, deprecated, renamed: "fileDataRepresentation(with:)")
    public func fileDataRepresentation(
        withReplacementMetadata replacementMetadata: [String: Any]?, replacementEmbeddedThumbnailPhotoFormat: [String: Any]?,
        replacementEmbeddedThumbnailPixelBuffer: CVPixelBuffer?, replacementDepthData: AVDepthData?
    ) -> Data? {
        guard let source else { return nil }
        let thumbnail = replacementEmbeddedThumbnailPixelBuffer ?? (replacementEmbeddedThumbnailPhotoFormat == nil ? nil : source.thumbnail)
        return try? source.file(metadata: replacementMetadata, thumbnail: thumbnail, thumbnailFormat: replacementEmbeddedThumbnailPhotoFormat ?? [:])
    }
}

extension AVCaptureDevice {
    /// How the lens stabilization module (OIS) served a capture (iOS 11).
    public enum LensStabilizationStatus: Int, Sendable {
        case unsupported = 0
        case off = 1
        case active = 2
        case outOfRange = 3
        case unavailable = 4
    }
}

extension PhotoDerivatives {
    /// `buffer` in `format` at its own size (itself when already in it).
    static func converted(_ buffer: CVPixelBuffer, to format: PixelFormat) -> CVPixelBuffer? {
        if buffer.format == format { return buffer }
        return scaled(buffer, to: CMVideoDimensions(width: Int32(buffer.width), height: Int32(buffer.height)), format: format)
    }
}
