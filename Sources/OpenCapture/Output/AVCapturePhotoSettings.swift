import Foundation
import Synchronization

/// What one photo capture asks for. Each capture needs its own settings object: reusing
/// one raises, as on iOS (make a copy with `init(from:)`).
open class AVCapturePhotoSettings: NSObject, @unchecked Sendable {
    private static let counter = Atomic<Int64>(0)

    /// Unique for every settings object made in the process.
    public let uniqueID: Int64
    /// The requested format: `[AVVideoCodecKey: AVVideoCodecType.jpeg]` (the default) or
    /// `[kCVPixelBufferPixelFormatTypeKey: <pixel format>]` for an uncompressed photo.
    public let format: [String: Any]?
    /// Whether to fire the flash (default `.off`); must be in the output's `supportedFlashModes`.
    open var flashMode: AVCaptureDevice.FlashMode = .off
    /// Speed versus quality (default `.balanced`).
    open var photoQualityPrioritization: AVCapturePhotoOutput.QualityPrioritization = .balanced
    /// The largest size wanted; zero means the output's `maxPhotoDimensions`.
    open var maxPhotoDimensions = CMVideoDimensions(width: 0, height: 0)

    /// JPEG settings.
    public override convenience init() {
        self.init(format: nil)
    }

    /// Settings for a format: a codec or an uncompressed pixel format.
    public init(format: [String: Any]?) {
        uniqueID = Self.counter.add(1, ordering: .relaxed).newValue
        self.format = format
        super.init()
    }

    /// A copy of `settings` with a new `uniqueID`, for taking another photo.
    public convenience init(from settings: AVCapturePhotoSettings) {
        self.init(format: settings.format)
        flashMode = settings.flashMode
        photoQualityPrioritization = settings.photoQualityPrioritization
        maxPhotoDimensions = settings.maxPhotoDimensions
    }

    /// The codec asked for, if compressed.
    var codec: AVVideoCodecType? {
        guard let format else { return .jpeg }
        if let codec = format[AVVideoCodecKey] as? AVVideoCodecType { return codec }
        if let codec = format[AVVideoCodecKey] as? String { return AVVideoCodecType(rawValue: codec) }
        return format[kCVPixelBufferPixelFormatTypeKey] == nil ? .jpeg : nil
    }

    /// The pixel format asked for, if uncompressed.
    var pixelFormat: OSType? {
        format?[kCVPixelBufferPixelFormatTypeKey].flatMap(integer).map { OSType(truncatingIfNeeded: $0) }
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
    /// Photos delivered for the request (one).
    public let expectedPhotoCount: Int

    init(uniqueID: Int64, photoDimensions: CMVideoDimensions, isFlashEnabled: Bool) {
        self.uniqueID = uniqueID
        self.photoDimensions = photoDimensions
        self.isFlashEnabled = isFlashEnabled
        self.expectedPhotoCount = 1
    }
}
