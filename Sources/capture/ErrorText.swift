import Foundation
import MediaIO
import OpenCapture

/// Errors as the one line the tool prints for them: never a multi-line dump of an `NSError`.
enum ErrorText {
    /// The message for `error`, on one line.
    static func line(_ error: any Error) -> String {
        let text: String
        switch error {
        case let error as UsageError: text = error.description
        case let error as OutputError: text = error.description
        case let error as MovieWriterError: text = error.description
        case let error as AVError: text = error.localizedDescription
        case is CocoaError, is POSIXError: text = error.localizedDescription
        // Foundation's errors describe themselves as a dump of their fields; their localized
        // description is the sentence.
        case let error as CustomStringConvertible where !(type(of: error as Any) is NSError.Type): text = error.description
        default: text = error.localizedDescription
        }
        return oneLine(text)
    }

    /// `text` with every run of line breaks and tabs turned into one space.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline || $0 == "\t" }).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `text` in single quotes with control characters escaped, so that a value holding a
    /// line break cannot split the one line of a message.
    static func quoted(_ text: String) -> String {
        "'" + StreamTarget.escapingControlCharacters(text) + "'"
    }
}
