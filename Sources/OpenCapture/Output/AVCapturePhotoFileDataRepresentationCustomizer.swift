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
}
