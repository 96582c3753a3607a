import Foundation
import Synchronization

/// A device's focus settings as last set through the API: the mode and the request that set
/// it, where autofocus looks and how it searches, and face-driven autofocus. The lens
/// position and whether autofocus is moving are the newest frame's.
///
/// Threads: any; the lock is held only to read or write the settings.
final class FocusUnit: Sendable {
    private struct State {
        /// nil until set: the device's default (`.continuousAutoFocus` where supported).
        var mode = Requested<AVCaptureDevice.FocusMode?>(nil)
        var pointOfInterest = CGPoint(x: 0.5, y: 0.5)
        var rangeRestriction = AVCaptureDevice.AutoFocusRangeRestriction.none
        var isSmoothEnabled = false
        /// Face-driven autofocus (iOS 15.4): whether the device decides, and the value set when it does not.
        var automaticallyAdjustsFaceDriven = true
        var faceDriven = true
    }

    private let state = Mutex(State())

    /// The mode in force given the newest frame (`fallback` until one is set): `.autoFocus`
    /// reads `.locked` once a frame that carries its request has found focus.
    func mode(after frame: FrameMetadata, fallback: AVCaptureDevice.FocusMode) -> AVCaptureDevice.FocusMode {
        let requested = state.withLock { $0.mode }
        let mode = requested.value ?? fallback
        if mode == .autoFocus, requested.isAcknowledged(by: frame), frame.focusState == .locked { return .locked }
        return mode
    }

    /// Records a mode and the request that carries it.
    func record(_ mode: AVCaptureDevice.FocusMode, request: UInt64) {
        state.withLock { $0.mode = Requested(mode, request: request) }
    }

    var pointOfInterest: CGPoint {
        get { state.withLock { $0.pointOfInterest } }
        set { state.withLock { $0.pointOfInterest = newValue } }
    }

    var rangeRestriction: AVCaptureDevice.AutoFocusRangeRestriction {
        get { state.withLock { $0.rangeRestriction } }
        set { state.withLock { $0.rangeRestriction = newValue } }
    }

    var isSmoothEnabled: Bool {
        get { state.withLock { $0.isSmoothEnabled } }
        set { state.withLock { $0.isSmoothEnabled = newValue } }
    }

    /// How an auto mode set now searches: the point, range and smoothness set so far.
    var search: FocusSearch {
        state.withLock {
            FocusSearch(
                point: PointOfInterest(x: $0.pointOfInterest.x, y: $0.pointOfInterest.y),
                rangeRestriction: $0.rangeRestriction.rawValue, smooth: $0.isSmoothEnabled)
        }
    }

    var automaticallyAdjustsFaceDriven: Bool {
        get { state.withLock { $0.automaticallyAdjustsFaceDriven } }
        set { state.withLock { $0.automaticallyAdjustsFaceDriven = newValue } }
    }

    var faceDriven: Bool {
        get { state.withLock { $0.faceDriven } }
        set { state.withLock { $0.faceDriven = newValue } }
    }
}
