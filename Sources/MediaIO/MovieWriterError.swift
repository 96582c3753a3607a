import CFFmpeg
import Foundation

/// Why a `MovieWriter` could not open, append or finish.
package enum MovieWriterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Something already exists at the URL. The writer never overwrites: the caller decides
    /// whether to delete it first.
    case fileExists
    /// The file could not be created or opened (missing or read-only folder, not a file URL...).
    case cannotOpen(String)
    /// The settings cannot be recorded (odd dimensions, a rotation that is not a multiple of 90...).
    case invalidSettings(String)
    /// The buffer's width or height differs from the writer's.
    case frameSizeMismatch
    /// The presentation time is not numeric, or not later than the previous frame's.
    case invalidTimestamp
    /// libavcodec or libx264 failed.
    case encoder(String)
    /// The file system has no space left (ENOSPC, or EDQUOT for a full quota).
    case diskFull
    /// Writing the file failed for another reason.
    case io(String)
    /// The writer has finished (or failed) and takes no more frames.
    case notWriting

    package var description: String {
        switch self {
        case .fileExists: "a file already exists at the movie's URL"
        case .cannotOpen(let reason): "cannot open the movie file: \(reason)"
        case .invalidSettings(let reason): "invalid movie settings: \(reason)"
        case .frameSizeMismatch: "the frame's size differs from the movie's"
        case .invalidTimestamp: "the frame's time is not numeric or not after the previous frame's"
        case .encoder(let reason): "video encoder: \(reason)"
        case .diskFull: "the disk is full"
        case .io(let reason): "cannot write the movie file: \(reason)"
        case .notWriting: "the movie writer has finished"
        }
    }

    /// The error for a failed write: `.diskFull` for ENOSPC and EDQUOT, else `.io`.
    ///
    /// - Parameters:
    ///   - code: a negative FFmpeg error code (`AVERROR(errno)` or one of FFmpeg's own).
    ///   - action: what was being done, for the message.
    static func writing(_ code: Int32, _ action: String) -> MovieWriterError {
        if code == cffmpeg_averror(ENOSPC) || code == cffmpeg_averror(EDQUOT) { return .diskFull }
        return .io("\(action): \(message(code))")
    }

    /// The error for a failed libavcodec call.
    static func encoding(_ code: Int32, _ action: String) -> MovieWriterError {
        .encoder("\(action): \(message(code))")
    }

    /// The error for an `errno` left by a failed system call.
    static func system(_ number: Int32, opening path: String) -> MovieWriterError {
        switch number {
        case EEXIST: .fileExists
        case ENOSPC, EDQUOT: .diskFull
        default: .cannotOpen("\(path): \(String(cString: strerror(number)))")
        }
    }

    /// FFmpeg's text for an error code, as `av_err2str` (a macro Swift cannot import) gives it.
    static func message(_ code: Int32) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(AV_ERROR_MAX_STRING_SIZE)) { text in
            guard av_strerror(code, text.baseAddress, text.count) == 0 else { return "error \(code)" }
            return String(cString: text.baseAddress!)
        }
    }
}
