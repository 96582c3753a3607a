import Foundation

/// Why the scene would make an uncomfortable spatial (stereo) video (iOS 18,
/// AVCaptureDevice.h), as reported by `AVCaptureDevice.spatialCaptureDiscomfortReasons`.
public struct AVSpatialCaptureDiscomfortReason: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Too dark: the two cameras' noise would differ visibly.
    public static let notEnoughLight = AVSpatialCaptureDiscomfortReason(rawValue: "AVSpatialCaptureDiscomfortReasonNotEnoughLight")
    /// The subject is nearer than a lens can focus.
    public static let subjectTooClose = AVSpatialCaptureDiscomfortReason(rawValue: "AVSpatialCaptureDiscomfortReasonSubjectTooClose")
}

extension AVCaptureDevice {
    /// What makes the current scene poor for spatial capture. Empty: spatial capture needs
    /// a stereo pair of cameras, and no format here supports it
    /// (`isSpatialVideoCaptureSupported` is false), so there is nothing to warn about.
    public var spatialCaptureDiscomfortReasons: Set<AVSpatialCaptureDiscomfortReason> { [] }

    /// Whether this is a Continuity Camera (an iPhone used as a webcam): only a device of
    /// type `.continuityCamera` is.
    public var isContinuityCamera: Bool { deviceType == .continuityCamera }

    /// The Desk View camera derived from this one: nil, as Desk View cameras exist only on
    /// macOS (`AVCaptureDeviceTypeDeskViewCamera` is unavailable on iOS).
    public var companionDeskViewCamera: AVCaptureDevice? { nil }
}
