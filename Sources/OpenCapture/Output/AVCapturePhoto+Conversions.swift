import Foundation
import ImageOps
import MediaIO

/// The photo as Core Graphics images, and what a photo carries only where the camera
/// measures it (depth, mattes, calibration, constant colour: never here).
extension AVCapturePhoto {
    func cgImageRepresentationBacking() -> CGImage? {
        guard !isRawPhoto else { return nil }
        if let pixelBuffer { return Self.cgImage(bgra: PhotoDerivatives.converted(pixelBuffer, to: .bgra), colorSpace: imageBufferColorSpace(pixelBuffer)) }
        guard let source, let data = fileDataRepresentation() else { return nil }
        return Self.cgImage(bgra: try? source.codec == .hevc ? HEIFDecoder.decode(data) : JPEGEncoder.decode(data))
    }

    func previewCGImageRepresentationBacking() -> CGImage? {
        guard let previewPixelBuffer else { return nil }
        return Self.cgImage(bgra: PhotoDerivatives.converted(previewPixelBuffer, to: .bgra), colorSpace: imageBufferColorSpace(previewPixelBuffer))
    }

    /// The BGRA buffer as an image whose samples are in `colorSpace`: the photo buffer's
    /// (from its attachments), else sRGB, the space stills are encoded in.
    private static func cgImage(bgra buffer: CVPixelBuffer?, colorSpace: CGColorSpace? = nil) -> CGImage? {
        buffer.flatMap { CGImage.copying(bgra: $0, colorSpace: colorSpace) }
    }

    func fileDataRepresentationBacking(
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
