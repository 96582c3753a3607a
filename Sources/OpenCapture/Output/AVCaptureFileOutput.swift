import Foundation

/// Hears when a recording starts and ends. `fileOutput(_:didFinishRecordingTo:from:error:)`
/// arrives exactly once for every `startRecording(to:recordingDelegate:)`, even when
/// nothing was recorded; with an error, `AVErrorRecordingSuccessfullyFinishedKey` in the
/// error's userInfo says whether the file is still complete and playable.
public protocol AVCaptureFileOutputRecordingDelegate: NSObjectProtocol {
    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection])
    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection], error: (any Error)?)
    /// The recording paused, as `pauseRecording()` asked (iOS 18); on the recording's queue.
    func fileOutput(_ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL, from connections: [AVCaptureConnection])
    /// The paused recording resumed, as `resumeRecording()` asked (iOS 18); on the recording's queue.
    func fileOutput(_ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL, from connections: [AVCaptureConnection])
}

extension AVCaptureFileOutputRecordingDelegate {
    public func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {}
    public func fileOutput(_ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {}
    public func fileOutput(_ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {}
}

/// An output that records to a file. Use `AVCaptureMovieFileOutput`.
open class AVCaptureFileOutput: AVCaptureOutput, @unchecked Sendable {
    /// The file being recorded, or nil.
    open var outputFileURL: URL? { nil }
    /// Whether a recording is in progress (from `startRecording` until its finish callback).
    open var isRecording: Bool { false }
    /// Whether the recording is paused.
    open var isRecordingPaused: Bool { false }
    /// How long the current recording is.
    open var recordedDuration: CMTime { .zero }
    /// How many bytes the current recording has written.
    open var recordedFileSize: Int64 { 0 }
    /// Observers of the output (see `AVCaptureOutput+KeyValueObserving.swift`).
    let fileKeyValueObservers = KeyValueObserverRegistry(label: "fileOutput")
    private let limits = Mutex<(duration: CMTime, fileSize: Int64, freeSpace: Int64)>((.invalid, 0, 0))
    /// The longest recording (default `.invalid`: no limit).
    open var maxRecordedDuration: CMTime {
        get { limits.withLock { $0.duration } }
        set { changingValues("maxRecordedDuration") { limits.withLock { $0.duration = newValue } } }
    }
    /// The largest file in bytes (default 0: no limit).
    open var maxRecordedFileSize: Int64 {
        get { limits.withLock { $0.fileSize } }
        set { changingValues("maxRecordedFileSize") { limits.withLock { $0.fileSize = newValue } } }
    }
    /// Recording stops when the disk's free space falls below this many bytes (default 0: never).
    open var minFreeDiskSpaceLimit: Int64 {
        get { limits.withLock { $0.freeSpace } }
        set { changingValues("minFreeDiskSpaceLimit") { limits.withLock { $0.freeSpace = newValue } } }
    }

    /// Starts recording to a file URL. Override point.
    open func startRecording(to outputFileURL: URL, recordingDelegate delegate: any AVCaptureFileOutputRecordingDelegate) {}
    /// Stops the recording; the delegate hears when the file is complete.
    open func stopRecording() {}
    /// Pauses the recording; frames until `resumeRecording()` are left out.
    open func pauseRecording() {}
    /// Resumes a paused recording.
    open func resumeRecording() {}
}
