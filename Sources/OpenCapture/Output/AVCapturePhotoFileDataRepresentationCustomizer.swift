import Foundation

/// Customizes the file `AVCapturePhoto.fileDataRepresentation(with:)` makes: replacement
/// or stripped metadata and embedded thumbnail. Every method is optional; one left out
/// keeps what the photo has.
///
/// Threads: the methods are called synchronously on the thread that called
/// `fileDataRepresentation(with:)`, before the file is built, with no lock held.
public protocol AVCapturePhotoFileDataRepresentationCustomizer: NSObjectProtocol {
    /// The metadata to write: `photo.metadata` keeps it, nil strips it (no EXIF at all),
    /// another dictionary ("Orientation", "{Exif}", "{TIFF}" with Image I/O's key names)
    /// replaces it. Keys OpenCapture does not write are ignored.
    func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]?

    /// The thumbnail to embed, with its format (`AVVideoCodecKey` from the settings'
    /// `availableEmbeddedThumbnailPhotoCodecTypes`, optional `AVVideoWidthKey` and
    /// `AVVideoHeightKey` to scale it) set through `replacementEmbeddedThumbnailPhotoFormatOut`;
    /// nil strips the thumbnail. The buffer is read while the file is built (unretained).
    func replacementEmbeddedThumbnailPixelBuffer(
        withPhotoFormat replacementEmbeddedThumbnailPhotoFormatOut: AutoreleasingUnsafeMutablePointer<NSDictionary?>,
        for photo: AVCapturePhoto
    ) -> Unmanaged<CVPixelBuffer>?

    /// The depth to write: the photo's own by default. Photos here carry none, so nothing
    /// is written whatever this returns.
    func replacementDepthData(for photo: AVCapturePhoto) -> AVDepthData?

    /// The portrait effects matte to write: the photo's own (none here) by default.
    func replacementPortraitEffectsMatte(for photo: AVCapturePhoto) -> AVPortraitEffectsMatte?

    /// The semantic segmentation matte of a type to write: the photo's own (none here) by default.
    func replacementSemanticSegmentationMatte(
        ofType semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType, for photo: AVCapturePhoto
    ) -> AVSemanticSegmentationMatte?

    /// Compression settings for an Apple ProRAW photo's DNG: `defaultSettings` by default.
    /// Never asked here: there are no Apple ProRAW photos (`isAppleProRAWSupported` is false).
    func replacementAppleProRAWCompressionSettings(for photo: AVCapturePhoto, defaultSettings: [String: Any], maximumBitDepth: Int) -> [String: Any]
}

extension AVCapturePhotoFileDataRepresentationCustomizer {
    /// Keeps the photo's metadata.
    public func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]? { photo.metadata }

    /// Keeps the photo's thumbnail and its format.
    public func replacementEmbeddedThumbnailPixelBuffer(
        withPhotoFormat replacementEmbeddedThumbnailPhotoFormatOut: AutoreleasingUnsafeMutablePointer<NSDictionary?>,
        for photo: AVCapturePhoto
    ) -> Unmanaged<CVPixelBuffer>? {
        replacementEmbeddedThumbnailPhotoFormatOut.pointee = photo.embeddedThumbnailPhotoFormat.map { NSDictionary(dictionary: $0) }
        return photo.source?.thumbnail.map { Unmanaged.passUnretained($0) }
    }

    /// Keeps the photo's depth.
    public func replacementDepthData(for photo: AVCapturePhoto) -> AVDepthData? { photo.depthData }

    /// Keeps the photo's portrait effects matte.
    public func replacementPortraitEffectsMatte(for photo: AVCapturePhoto) -> AVPortraitEffectsMatte? { photo.portraitEffectsMatte }

    /// Keeps the photo's matte of that type.
    public func replacementSemanticSegmentationMatte(
        ofType semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType, for photo: AVCapturePhoto
    ) -> AVSemanticSegmentationMatte? {
        photo.semanticSegmentationMatte(for: semanticSegmentationMatteType)
    }

    /// Keeps the default settings.
    public func replacementAppleProRAWCompressionSettings(
        for photo: AVCapturePhoto, defaultSettings: [String: Any], maximumBitDepth: Int
    ) -> [String: Any] {
        defaultSettings
    }
}
