import Foundation
import MediaIO

extension RecordingCore {
    /// Who reports a writer's error; each keeps the codes and wording it always had.
    enum Reporter: Sendable {
        /// A capture file output or a Live Photo movie: the error carries
        /// `AVErrorRecordingSuccessfullyFinishedKey`, true when the file took media (and so
        /// plays) before it failed.
        case fileOutput(wroteMedia: Bool)
        /// `AVAssetWriter`'s `error`: Apple's writer codes, no recording keys.
        case assetWriter
    }

    /// The `AVError` for a writer's failure, as `reporter` reports it.
    static func avError(_ error: MovieWriterError, for reporter: Reporter) -> AVError {
        switch reporter {
        case .fileOutput(let wrote):
            let playable: [String: any Sendable] = [AVErrorRecordingSuccessfullyFinishedKey: wrote]
            switch error {
            case .diskFull: return AVError(.diskFull, "The disk is full.", userInfo: playable)
            case .fileExists: return AVError(.fileAlreadyExists, "The file already exists.", userInfo: [AVErrorRecordingSuccessfullyFinishedKey: false])
            default: return AVError(.unknown, "Recording failed: \(error)", userInfo: playable)
            }
        case .assetWriter:
            switch error {
            case .fileExists: return AVError(.fileAlreadyExists, "Cannot create file: a file already exists at the output URL.")
            case .diskFull: return AVError(.diskFull, "The disk is full.")
            case .invalidSettings(let reason): return AVError(.encoderNotFound, "Cannot encode media with these settings: \(reason)")
            case .cannotOpen(let reason): return AVError(.unknown, "Cannot create file: \(reason)")
            default: return AVError(.unknown, "Writing failed: \(error)")
            }
        }
    }

    /// `avError(_:for:)` for any error; one that is not the writer's is `.unknown` with its
    /// description.
    static func avError(_ error: any Error, for reporter: Reporter) -> AVError {
        guard let error = error as? MovieWriterError else { return AVError(.unknown, "\(error)") }
        return avError(error, for: reporter)
    }

    /// Whether `writer` took any frame or sound, so the file it leaves plays.
    static func wroteMedia(_ writer: MovieWriter?) -> Bool {
        guard let writer else { return false }
        return writer.framesWritten > 0 || writer.audioSamplesWritten > 0
    }
}
