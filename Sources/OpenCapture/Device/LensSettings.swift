import Foundation

/// A device's focus, zoom and torch settings as last asked for through the API, and the
/// requests that asked (readable properties switch to frame metadata once a frame carries them).
struct LensSettings {
    /// nil until set: the device's default (`.continuousAutoFocus` where supported).
    var focusMode: AVCaptureDevice.FocusMode?
    var focusRequest: UInt64 = 0
    var focusPointOfInterest = CGPoint(x: 0.5, y: 0.5)
    var autoFocusRangeRestriction = AVCaptureDevice.AutoFocusRangeRestriction.none
    var isSmoothAutoFocusEnabled = false
    /// The zoom factor set last, and the last zoom request (set, ramp or cancel).
    var videoZoomFactor: CGFloat = 1
    var zoomRequest: UInt64 = 0
    /// The last ramp request, while it may not have reached a frame yet.
    var rampRequest: UInt64 = 0
    var torchMode = AVCaptureDevice.TorchMode.off
}
