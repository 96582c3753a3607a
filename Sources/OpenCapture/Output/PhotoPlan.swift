import Foundation

/// What a validated capture will do.
struct PhotoPlan: @unchecked Sendable {
    let device: AVCaptureDevice
    let connection: AVCaptureConnection
    let width: Int
    let height: Int
    let pixelFormat: PixelFormat
    /// The codec of a compressed photo; nil for an uncompressed one.
    let codec: AVVideoCodecType?
    let flashMode: AVCaptureDevice.FlashMode
    /// The embedded thumbnail asked for.
    var thumbnail: Thumbnail?
    /// The preview pixel buffer asked for.
    var preview: Preview?
    /// Whether a raw photo is delivered (first), and a processed one.
    var raw = false
    var processed = true
    /// The still-image connection's `videoScaleAndCropFactor` (1: the still as rendered).
    var scaleAndCrop: CGFloat = 1
    /// A bracket's exposures, in order; empty for one photo.
    var bracket: [AVCaptureBracketedStillImageSettings] = []

    var compressed: Bool { codec != nil }

    struct Thumbnail {
        let codec: AVVideoCodecType
        let size: CMVideoDimensions
    }

    struct Preview {
        let format: PixelFormat
        let size: CMVideoDimensions
    }
}
