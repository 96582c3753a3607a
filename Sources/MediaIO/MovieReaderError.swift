import CFFmpeg
import Foundation

/// Why a `MovieReader` or `MovieTrackDecoder` could not open, demux or decode a file.
package enum MovieReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be opened (missing, unreadable, not a file URL).
    case cannotOpen(String)
    /// No demuxer recognises the file's contents (a text file, random bytes).
    case notRecognized(String)
    /// A demuxer recognised the container but cannot parse it (truncated before its index,
    /// corrupt boxes).
    case cannotParse(String)
    /// FFmpeg has no decoder for the track's codec.
    case noDecoder(String)
    /// The track's data cannot be decoded.
    case decodeFailed(String)
    /// The conversion to the requested pixel or sample format is not possible.
    case unsupportedFormat(String)

    package var description: String {
        switch self {
        case .cannotOpen(let reason): "cannot open the media file: \(reason)"
        case .notRecognized(let reason): "not a media file FFmpeg recognises: \(reason)"
        case .cannotParse(let reason): "cannot parse the media file: \(reason)"
        case .noDecoder(let codec): "no decoder for \(codec)"
        case .decodeFailed(let reason): "cannot decode the media data: \(reason)"
        case .unsupportedFormat(let reason): "unsupported output format: \(reason)"
        }
    }
}
