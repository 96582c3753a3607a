import Foundation

/// A device's focus settings as last set through the API (`DeviceCore.focus`): the mode and
/// the request that set it, where autofocus looks and how it searches, and face-driven
/// autofocus. The lens position and whether autofocus is moving are the newest frame's.
struct FocusSettings: Sendable {
    /// nil until set: the device's default (`.continuousAutoFocus` where supported).
    var mode = Requested<AVCaptureDevice.FocusMode?>(nil)
    var pointOfInterest = CGPoint(x: 0.5, y: 0.5)
    var rangeRestriction = AVCaptureDevice.AutoFocusRangeRestriction.none
    var isSmoothEnabled = false
    /// Face-driven autofocus (iOS 15.4): whether the device decides, and the value set when it does not.
    var automaticallyAdjustsFaceDriven = true
    var faceDriven = true

    /// How an auto mode set now searches: the point, range and smoothness set so far.
    var search: FocusSearch {
        FocusSearch(
            point: PointOfInterest(x: pointOfInterest.x, y: pointOfInterest.y), rangeRestriction: rangeRestriction.rawValue,
            smooth: isSmoothEnabled)
    }

    /// The mode in force given the newest frame (`fallback` until one is set): `.autoFocus`
    /// reads `.locked` once a frame that carries its request has found focus.
    func mode(after frame: FrameMetadata, fallback: AVCaptureDevice.FocusMode) -> AVCaptureDevice.FocusMode {
        let current = mode.value ?? fallback
        if current == .autoFocus, mode.isAcknowledged(by: frame), frame.focusState == .locked { return .locked }
        return current
    }
}

extension DeviceUnit<FocusSettings> {
    func mode(after frame: FrameMetadata, fallback: AVCaptureDevice.FocusMode) -> AVCaptureDevice.FocusMode {
        withLock { $0 }.mode(after: frame, fallback: fallback)
    }
}
