import Foundation

/// A programming error that Apple's AVFoundation reports by raising an Objective-C
/// exception. The trapping API ends the process with it; the `validate…`/`try…` Linux
/// additions throw it instead, so servers and command-line tools can explain bad input.
public struct AVCaptureException: Error, Sendable, Equatable, CustomStringConvertible {
    /// The exception name, as Apple spells it.
    public struct Name: RawRepresentable, Sendable, Equatable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `NSInvalidArgumentException`: a value or mode the receiver does not support.
        public static let invalidArgument = Name(rawValue: "NSInvalidArgumentException")
        /// `NSGenericException`: the call is not allowed in the current state (e.g. no lock).
        public static let generic = Name(rawValue: "NSGenericException")
        /// `NSRangeException`: a value outside its documented range.
        public static let range = Name(rawValue: "NSRangeException")
        /// `NSInternalInconsistencyException`: the receiver's state forbids the call (an
        /// asset writer's status, an input appended to before the session started).
        public static let internalInconsistency = Name(rawValue: "NSInternalInconsistencyException")
    }

    public let name: Name
    /// Apple's reason text, beginning with `*** -[Class selector]`.
    public let reason: String

    public init(_ name: Name, _ reason: String) {
        self.name = name
        self.reason = reason
    }

    /// The message the process prints when the exception is not caught, as on iOS.
    public var terminationMessage: String {
        "*** Terminating app due to uncaught exception '\(name.rawValue)', reason: '\(reason)'"
    }

    public var description: String { "\(name.rawValue): \(reason)" }

    /// Ends the process the way an uncaught Objective-C exception does: the message on
    /// standard error, then `abort()`.
    public func raise() -> Never {
        FileHandle.standardError.write(Data((terminationMessage + "\n").utf8))
        abort()
    }
}

/// Runs a validation and traps with Apple's message if it fails.
func enforce(_ check: () throws -> Void) {
    do {
        try check()
    } catch let exception as AVCaptureException {
        exception.raise()
    } catch {
        AVCaptureException(.generic, "\(error)").raise()
    }
}

/// Builds a reason in Apple's shape: `*** -[Class selector] text`.
func selectorReason(_ type: String, _ selector: String, _ text: String) -> String {
    "*** -[\(type) \(selector)] \(text)"
}
