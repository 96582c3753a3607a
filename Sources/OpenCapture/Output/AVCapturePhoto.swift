import Foundation

/// One captured photo: its file data (JPEG with EXIF), its pixels for uncompressed
/// formats, its timestamp and metadata.
open class AVCapturePhoto: NSObject, @unchecked Sendable {
    private let fileData: Data?
    /// The photo's pixels when the settings asked for an uncompressed pixel format, else nil
    /// (as on iOS, a JPEG photo carries no pixel buffer).
    public let pixelBuffer: CVPixelBuffer?
    /// When the photo was taken, on the session's synchronization clock.
    public let timestamp: CMTime
    /// EXIF and TIFF metadata, shaped like Apple's: "Orientation", "{Exif}", "{TIFF}".
    public let metadata: [String: Any]
    /// The settings the capture used.
    public let resolvedSettings: AVCaptureResolvedPhotoSettings
    /// The photo's index in its request (one photo per request: 1).
    public let photoCount: Int = 1
    /// Raw photos are not supported yet.
    public let isRawPhoto = false

    init(fileData: Data?, pixelBuffer: CVPixelBuffer?, timestamp: CMTime, metadata: [String: Any], resolvedSettings: AVCaptureResolvedPhotoSettings) {
        self.fileData = fileData
        self.pixelBuffer = pixelBuffer
        self.timestamp = timestamp
        self.metadata = metadata
        self.resolvedSettings = resolvedSettings
    }

    /// The photo as a file: JPEG with EXIF for JPEG settings; nil for uncompressed settings
    /// (read `pixelBuffer` instead).
    open func fileDataRepresentation() -> Data? { fileData }
}
