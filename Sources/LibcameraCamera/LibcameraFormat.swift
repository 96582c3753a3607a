import CaptureCore
import V4L2Camera

/// One stream format of a libcamera camera: libcamera's PixelFormat FourCC (DRM's), the
/// V4L2 pixel code with the same memory layout, and the size.
struct LibcameraFormat: Sendable, Equatable {
    var fourcc: UInt32
    var code: V4L2PixelCode
    var width: Int
    var height: Int
    /// Whether libcamera adjusted the configuration asked for to this one (validate() said
    /// Adjusted: vimc's scaler takes widths in steps, so 640 becomes 636).
    var adjusted = false
    /// The size libcamera streams when asked for this one (validate() without acquiring
    /// the camera, at discovery): vimc streams 636x480 for 640x480. 0 when not tried.
    var streamedWidth = 0
    var streamedHeight = 0

    /// What a stream of this format delivers: the streamed size when known, else the size.
    var streamed: PhotoSize {
        streamedWidth > 0 && streamedHeight > 0 ? PhotoSize(width: streamedWidth, height: streamedHeight) : PhotoSize(width: width, height: height)
    }

    /// The V4L2 layout of a libcamera format, nil for formats nothing downstream shows
    /// (raw Bayer, 10-bit). DRM names packed RGB by little-endian word order: 'BG24'
    /// (BGR888) is R, G, B bytes in memory, V4L2's RGB24; 'RG24' is V4L2's BGR24. The YUV
    /// formats share V4L2's FourCCs.
    static func pixelCode(_ fourcc: UInt32) -> V4L2PixelCode? {
        switch fourcc {
        case 0x3432_4742: .rgb24  // 'BG24'
        case 0x3432_4752: .bgr24  // 'RG24'
        default: V4L2PixelCode(rawValue: fourcc).flatMap { $0 == .rgb24 || $0 == .bgr24 ? nil : $0 }
        }
    }
}
