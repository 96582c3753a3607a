import CaptureCore

/// Why a JPEG could not be made or read.
package enum JPEGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The buffer's pixel format has no JPEG path.
    case unsupportedPixelFormat(String)
    /// The picture is empty or larger than JPEG or memory allows.
    case unsupportedSize(width: Int, height: Int)
    /// The EXIF block does not fit in one APP1 segment (64 KiB).
    case exifTooLarge(bytes: Int)
    /// The data is not a JPEG file.
    case notJPEG
    /// TurboJPEG reported an error; the message is its own.
    case turboJPEG(String)

    package var description: String {
        switch self {
        case .unsupportedPixelFormat(let format): "JPEG: unsupported pixel format \(format)"
        case .unsupportedSize(let width, let height): "JPEG: unsupported size \(width)x\(height)"
        case .exifTooLarge(let bytes): "JPEG: EXIF block of \(bytes) bytes exceeds one APP1 segment"
        case .notJPEG: "JPEG: data is not a JPEG file"
        case .turboJPEG(let message): "JPEG: \(message)"
        }
    }
}
