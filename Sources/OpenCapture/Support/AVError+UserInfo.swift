import Foundation

/// userInfo key: the `AVCaptureDevice` involved.
public let AVErrorDeviceKey = "AVErrorDeviceKey"
/// userInfo key: a `CMTime`.
public let AVErrorTimeKey = "AVErrorTimeKey"
/// userInfo key: a file size in bytes (`Int64`).
public let AVErrorFileSizeKey = "AVErrorFileSizeKey"
/// userInfo key: the ID of the process involved (`Int`).
public let AVErrorPIDKey = "AVErrorPIDKey"
/// userInfo key: whether a recording finished successfully despite the error (`Bool`).
public let AVErrorRecordingSuccessfullyFinishedKey = "AVErrorRecordingSuccessfullyFinishedKey"
/// userInfo key: the media type (an `AVMediaType` raw value string).
public let AVErrorMediaTypeKey = "AVErrorMediaTypeKey"
/// userInfo key: the media subtypes, four-character codes (`[Int]`).
public let AVErrorMediaSubTypeKey = "AVErrorMediaSubTypeKey"
/// userInfo key: a presentation time stamp (`CMTime`).
public let AVErrorPresentationTimeStampKey = "AVErrorPresentationTimeStampKey"
/// userInfo key: a persistent track ID (`CMPersistentTrackID`).
public let AVErrorPersistentTrackIDKey = "AVErrorPersistentTrackIDKey"
/// userInfo key: a file type (an `AVFileType` raw value string).
public let AVErrorFileTypeKey = "AVErrorFileTypeKey"
/// userInfo key (macOS): discontinuity flags.
public let AVErrorDiscontinuityFlagsKey = "AVErrorDiscontinuityFlagsKey"

/// The typed user-info accessors of Apple's Swift overlay.
extension AVError {
    /// The device involved (`AVErrorDeviceKey`).
    public var device: AVCaptureDevice? { userInfo[AVErrorDeviceKey] as? AVCaptureDevice }
    /// The time involved (`AVErrorTimeKey`).
    public var time: CMTime? { userInfo[AVErrorTimeKey] as? CMTime }
    /// The file size involved (`AVErrorFileSizeKey`).
    public var fileSize: Int64? { (userInfo[AVErrorFileSizeKey] as? Int64) ?? integer(userInfo[AVErrorFileSizeKey]).map(Int64.init) }
    /// The process involved (`AVErrorPIDKey`).
    public var processID: Int? { integer(userInfo[AVErrorPIDKey]) }
    /// Whether the recording is playable (`AVErrorRecordingSuccessfullyFinishedKey`).
    public var recordingSuccessfullyFinished: Bool? {
        let value = userInfo[AVErrorRecordingSuccessfullyFinishedKey]
        return (value as? Bool) ?? (value as? NSNumber)?.boolValue
    }
    /// The media type involved (`AVErrorMediaTypeKey`).
    public var mediaType: AVMediaType? {
        let value = userInfo[AVErrorMediaTypeKey]
        return (value as? AVMediaType) ?? (value as? String).map(AVMediaType.init(rawValue:))
    }
    /// The media subtypes involved (`AVErrorMediaSubTypeKey`).
    public var mediaSubtypes: [Int]? {
        guard let values = userInfo[AVErrorMediaSubTypeKey] as? [Any] else { return nil }
        return values.compactMap { integer($0) }
    }
    /// The presentation time stamp involved (`AVErrorPresentationTimeStampKey`).
    public var presentationTimeStamp: CMTime? { userInfo[AVErrorPresentationTimeStampKey] as? CMTime }
    /// The persistent track ID involved (`AVErrorPersistentTrackIDKey`).
    public var persistentTrackID: CMPersistentTrackID? { integer(userInfo[AVErrorPersistentTrackIDKey]).map { CMPersistentTrackID(truncatingIfNeeded: $0) } }
    /// The file type involved (`AVErrorFileTypeKey`).
    public var fileType: AVFileType? {
        let value = userInfo[AVErrorFileTypeKey]
        return (value as? AVFileType) ?? (value as? String).map(AVFileType.init(rawValue:))
    }
}
