import Foundation

/// What the app chose on a photo output (the settings part of its state): sizes and
/// quality, the deprecated high-resolution switch, scene monitoring, zero shutter lag and
/// responsive capture, Live Photo capture, and the prepared settings. The output keeps it
/// under a lock of its own (`AVCapturePhotoOutput.settingsState`); nothing in it changes
/// per capture, so taking a photo never waits for a setter (the per-capture state is the
/// schedule's, `PhotoCaptureSchedule`).
struct PhotoOutputSettings {
    var maxPhotoDimensions: CMVideoDimensions?
    var maxQuality = AVCapturePhotoOutput.QualityPrioritization.balanced
    /// The deprecated `isHighResolutionCaptureEnabled`, when set.
    var highResolutionCapture: Bool?
    var sceneMonitoringSettings: AVCapturePhotoSettings?
    /// Zero shutter lag as set (nil: the default, on), responsive capture, fast capture
    /// prioritization, and the camera told to keep its recent frames.
    var zeroShutterLag: Bool?
    var responsiveCapture = false
    var fastCapturePrioritization = false
    var recentFramesCamera: (any StillCapturing)?
    var livePhotoCapture = false
    var livePhotoSuspended = false
    var preservesLivePhotoSuspension = false
    var livePhotoAutoTrimming = true
    /// The settings of the last preparation done, and the preparation waiting for the
    /// session to run (or for its transaction to end).
    var prepared: [AVCapturePhotoSettings] = []
    var pendingPreparation: AVCapturePhotoOutput.PendingPreparation?
}
