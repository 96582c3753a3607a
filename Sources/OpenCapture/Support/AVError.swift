import Foundation

/// The error domain of AVFoundation errors.
public let AVFoundationErrorDomain = "AVFoundationErrorDomain"

/// An AVFoundation error, as Apple's SDK bridges `NSError`s of `AVFoundationErrorDomain`
/// into Swift: a struct wrapping the `NSError`, with a ``Code`` enum holding Apple's raw
/// values from AVError.h.
///
/// As on Apple platforms it bridges both ways: an `NSError` of the domain casts to
/// `AVError` (`userInfo[AVCaptureSessionErrorKey] as? AVError`), and an `AVError` casts to
/// `NSError` (`as? NSError`, `as NSError`). Throw and match it the iOS way:
///
/// ```swift
/// do { _ = try AVCaptureDeviceInput(device: camera) }
/// catch AVError.deviceNotConnected { ... }
/// catch let error as AVError where error.code == .applicationIsNotAuthorizedToUseDevice { ... }
/// ```
public struct AVError: CustomNSError, Hashable, Sendable, CustomStringConvertible {
    /// The `NSError` this error wraps.
    public let _nsError: NSError

    /// Wraps an `NSError`; its domain should be `AVFoundationErrorDomain`.
    public init(_nsError: NSError) {
        self._nsError = _nsError
    }

    /// An error with a code and user info (`NSLocalizedDescriptionKey`, `AVErrorDeviceKey` …).
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.init(_nsError: NSError(domain: AVFoundationErrorDomain, code: code.rawValue, userInfo: userInfo))
    }

    /// The domain of AVFoundation errors: `AVFoundationErrorDomain`.
    public static var errorDomain: String { AVFoundationErrorDomain }

    /// The error's code; `.unknown` for a raw value AVError.h does not define.
    public var code: Code { Code(rawValue: _nsError.code) ?? .unknown }

    /// The wrapped error's user info.
    public var userInfo: [String: Any] { _nsError.userInfo }

    /// The raw code, as `NSError.code`.
    public var errorCode: Int { _nsError.code }

    /// The user info the error bridges to `NSError` with.
    public var errorUserInfo: [String: Any] { _nsError.userInfo }

    /// A human-readable explanation (`NSLocalizedDescriptionKey`).
    public var localizedDescription: String { _nsError.localizedDescription }

    public var description: String { "\(localizedDescription) (AVFoundationErrorDomain \(errorCode))" }

    /// Errors are equal when their `NSError`s are (domain, code and user info).
    public static func == (lhs: AVError, rhs: AVError) -> Bool {
        lhs._nsError.isEqual(rhs._nsError)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(_nsError.domain)
        hasher.combine(_nsError.code)
    }

    /// The error as an `NSError` in `AVFoundationErrorDomain`.
    package var nsError: NSError { _nsError }

    /// An error with a description, the way OpenCapture's own code makes them.
    package init(_ code: Code, _ description: String, userInfo: [String: any Sendable] = [:]) {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        for (key, value) in userInfo { info[key] = value }
        self.init(code, userInfo: info)
    }
}

// Bridging to and from NSError, as the Objective-C runtime does on Apple platforms: lets
// `Any` holding an `NSError` cast to `AVError` and an `AVError` cast to `NSError`.
extension AVError: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSError { _nsError }

    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout AVError?) {
        result = AVError(_nsError: source)
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout AVError?) -> Bool {
        guard source.domain == AVFoundationErrorDomain else { return false }
        result = AVError(_nsError: source)
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> AVError {
        AVError(_nsError: source ?? NSError(domain: AVFoundationErrorDomain, code: Code.unknown.rawValue))
    }
}
