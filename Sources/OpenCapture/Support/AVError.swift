import Foundation

/// The error domain of AVFoundation errors.
public let AVFoundationErrorDomain = "AVFoundationErrorDomain"
/// userInfo key: whether a recording finished successfully despite the error (Bool).
public let AVErrorRecordingSuccessfullyFinishedKey = "AVErrorRecordingSuccessfullyFinishedKey"
/// userInfo key of the device involved.
public let AVErrorDeviceKey = "AVErrorDeviceKey"

/// AVFoundation's error codes with Apple's raw values.
public struct AVError: Error, CustomNSError, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let unknown = Code(rawValue: -11800)
        public static let outOfMemory = Code(rawValue: -11801)
        public static let sessionNotRunning = Code(rawValue: -11803)
        public static let deviceAlreadyUsedByAnotherSession = Code(rawValue: -11804)
        public static let noDataCaptured = Code(rawValue: -11805)
        public static let sessionConfigurationChanged = Code(rawValue: -11806)
        public static let diskFull = Code(rawValue: -11807)
        public static let deviceWasDisconnected = Code(rawValue: -11808)
        public static let mediaChanged = Code(rawValue: -11809)
        public static let maximumDurationReached = Code(rawValue: -11810)
        public static let maximumFileSizeReached = Code(rawValue: -11811)
        public static let mediaDiscontinuity = Code(rawValue: -11812)
        public static let maximumNumberOfSamplesForFileFormatReached = Code(rawValue: -11813)
        public static let deviceNotConnected = Code(rawValue: -11814)
        public static let deviceInUseByAnotherApplication = Code(rawValue: -11815)
        public static let deviceLockedForConfigurationByAnotherProcess = Code(rawValue: -11817)
        public static let sessionWasInterrupted = Code(rawValue: -11818)
        public static let mediaServicesWereReset = Code(rawValue: -11819)
        public static let fileAlreadyExists = Code(rawValue: -11823)
        public static let deviceIsNotAvailableInBackground = Code(rawValue: -11837)
        public static let torchLevelUnavailable = Code(rawValue: -11846)
        public static let applicationIsNotAuthorizedToUseDevice = Code(rawValue: -11852)
        public static let recordingAlreadyInProgress = Code(rawValue: -11859)
        public static let sessionHardwareCostOverage = Code(rawValue: -11872)
    }

    /// The error code.
    public let code: Code
    /// A human-readable explanation.
    public let localizedDescription: String
    /// Extra facts, e.g. `AVErrorRecordingSuccessfullyFinishedKey`.
    public let userInfo: [String: any Sendable]

    public init(_ code: Code, _ description: String, userInfo: [String: any Sendable] = [:]) {
        self.code = code
        self.localizedDescription = description
        self.userInfo = userInfo
    }

    public static var errorDomain: String { AVFoundationErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: localizedDescription]
        for (key, value) in userInfo { info[key] = value }
        return info
    }

    public var description: String { "\(localizedDescription) (AVFoundationErrorDomain \(code.rawValue))" }

    public static func == (lhs: AVError, rhs: AVError) -> Bool {
        lhs.code == rhs.code && lhs.localizedDescription == rhs.localizedDescription
    }

    /// The error as an `NSError` in `AVFoundationErrorDomain`, as notifications carry it.
    public var nsError: NSError {
        NSError(domain: AVFoundationErrorDomain, code: code.rawValue, userInfo: errorUserInfo)
    }
}
