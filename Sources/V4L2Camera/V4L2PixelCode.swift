import CaptureCore

/// The V4L2 pixel formats this backend streams, by their kernel FourCC.
///
/// Formats outside this list (Bayer, 10-bit, HSV, …) are left out of the device's formats:
/// nothing downstream could show them.
package enum V4L2PixelCode: UInt32, CaseIterable, Sendable {
    case nv12 = 0x3231_564E  // 'NV12'
    case yu12 = 0x3231_5559  // 'YU12' (I420)
    case yuyv = 0x5659_5559  // 'YUYV'
    case uyvy = 0x5956_5955  // 'UYVY'
    case mjpeg = 0x4750_4A4D  // 'MJPG'
    case rgb24 = 0x3342_4752  // 'RGB3': R, G, B bytes
    case bgr24 = 0x3352_4742  // 'BGR3': B, G, R bytes

    /// The kernel's FourCC as text, e.g. "YUYV".
    package var name: String {
        let bytes = [0, 8, 16, 24].map { UInt8((rawValue >> UInt32($0)) & 0xFF) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What `formatDescription.mediaSubType` reports for the format, as macOS does for
    /// webcams: '420v', 'y420', 'yuvs', '2vuy', 'dmb1' (Motion JPEG), 24-bit RGB/BGR.
    package var mediaSubType: OSType {
        switch self {
        case .nv12: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        case .yu12: kCVPixelFormatType_420YpCbCr8Planar
        case .yuyv: 0x7975_7673  // 'yuvs'
        case .uyvy: 0x3276_7579  // '2vuy'
        case .mjpeg: 0x646D_6231  // 'dmb1'
        case .rgb24: 0x0000_0018  // kCVPixelFormatType_24RGB
        case .bgr24: 0x3234_4247  // '24BG'
        }
    }

    /// Our pixel format with the very same memory layout, when there is one: a stream in
    /// that format is handed out without a copy.
    package var sameLayout: PixelFormat? {
        switch self {
        case .nv12: .yuv420BiPlanarVideoRange
        case .yu12: .yuv420PlanarVideoRange
        default: nil
        }
    }

    /// Preference when several formats offer one size: formats that need no conversion
    /// first, then cheap repacks, then decoding.
    package var preference: Int {
        switch self {
        case .nv12: 0
        case .yu12: 1
        case .yuyv: 2
        case .uyvy: 3
        case .mjpeg: 4
        case .rgb24: 5
        case .bgr24: 6
        }
    }
}
