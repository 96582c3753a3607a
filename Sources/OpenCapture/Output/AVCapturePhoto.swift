import Foundation

/// One captured photo: its file data (JPEG or HEIC with EXIF), its pixels for uncompressed
/// formats, its preview, its timestamp and metadata.
open class AVCapturePhoto: NSObject, @unchecked Sendable {
    private let fileData: Data?
    /// What the file was made from, to make it again with a customizer; nil for an
    /// uncompressed photo or a failed capture.
    let source: PhotoSource?
    /// The photo's pixels when the settings asked for an uncompressed pixel format, else nil
    /// (as on iOS, a compressed photo carries no pixel buffer).
    public let pixelBuffer: CVPixelBuffer?
    /// A scaled copy of the photo in the settings' `previewPhotoFormat`, or nil if none was asked for.
    public let previewPixelBuffer: CVPixelBuffer?
    /// When the photo was taken, on the session's synchronization clock.
    public let timestamp: CMTime
    /// EXIF and TIFF metadata, shaped like Apple's: "Orientation", "{Exif}", "{TIFF}".
    public let metadata: [String: Any]
    /// The settings the capture used.
    public let resolvedSettings: AVCaptureResolvedPhotoSettings
    /// The photo's 1-based index among the request's `resolvedSettings.expectedPhotoCount`
    /// photos: for raw plus processed, 1 for the raw photo (delivered first) and 2 for the
    /// processed one.
    public let photoCount: Int
    /// Whether this is the raw (Bayer) photo of a raw capture, whose file is a DNG.
    public let isRawPhoto: Bool
    /// The type of the camera that took the photo: the connected device's `deviceType`
    /// (no constituent photo delivery here); nil for a photo no camera took (a failed capture).
    public let sourceDeviceType: AVCaptureDevice.DeviceType?

    init(
        fileData: Data?, source: PhotoSource? = nil, pixelBuffer: CVPixelBuffer?, previewPixelBuffer: CVPixelBuffer? = nil,
        timestamp: CMTime, metadata: [String: Any], resolvedSettings: AVCaptureResolvedPhotoSettings, isRawPhoto: Bool = false,
        photoCount: Int = 1, sourceDeviceType: AVCaptureDevice.DeviceType? = nil
    ) {
        self.isRawPhoto = isRawPhoto
        self.photoCount = photoCount
        self.sourceDeviceType = sourceDeviceType
        self.fileData = fileData
        self.source = source
        self.pixelBuffer = pixelBuffer
        self.previewPixelBuffer = previewPixelBuffer
        self.timestamp = timestamp
        self.metadata = metadata
        self.resolvedSettings = resolvedSettings
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
}
