import Foundation
import Synchronization

/// A device's exposure settings as last set through the API: the mode and the request that
/// set it, the metering point, the target bias, the cap on exposure time, whether
/// low-light boost may turn on, and face-driven auto exposure. What the camera exposed with (time, ISO, offset, boost) is
/// the newest frame's.
///
/// Threads: any; the lock is held only to read or write the settings.
final class ExposureUnit: Sendable {
    private struct State {
        var mode = Requested(AVCaptureDevice.ExposureMode.continuousAutoExposure)
        var pointOfInterest = CGPoint(x: 0.5, y: 0.5)
        var targetBias: Float = 0
        /// `.invalid` means the format's default.
        var maxExposureDuration = CMTime.invalid
        var lowLightBoostAllowed = false
        /// Face-driven auto exposure (iOS 15.4): whether the device decides, and the value set when it does not.
        var automaticallyAdjustsFaceDriven = true
        var faceDriven = true
    }

    private let state = Mutex(State())

    /// The mode in force given the newest frame: `.autoExpose` reads `.locked` once a frame
    /// that carries its request has settled.
    func mode(after frame: FrameMetadata) -> AVCaptureDevice.ExposureMode {
        let requested = state.withLock { $0.mode }
        if requested.value == .autoExpose, requested.isAcknowledged(by: frame), frame.exposureState == .locked { return .locked }
        return requested.value
    }

    /// Records a mode and the request that carries it.
    func record(_ mode: AVCaptureDevice.ExposureMode, request: UInt64) {
        state.withLock { $0.mode = Requested(mode, request: request) }
    }

    var pointOfInterest: CGPoint {
        get { state.withLock { $0.pointOfInterest } }
        set { state.withLock { $0.pointOfInterest = newValue } }
    }

    var targetBias: Float {
        get { state.withLock { $0.targetBias } }
        set { state.withLock { $0.targetBias = newValue } }
    }

    /// The cap set on exposure time; `.invalid` for the format's default.
    var maxExposureDuration: CMTime {
        get { state.withLock { $0.maxExposureDuration } }
        set { state.withLock { $0.maxExposureDuration = newValue } }
    }

    /// Drops the cap (a new format resets it, as on iOS); returns whether one was set.
    func resetMaxExposureDuration() -> Bool {
        state.withLock { state in
            defer { state.maxExposureDuration = .invalid }
            return state.maxExposureDuration.isValid
        }
    }

    var lowLightBoostAllowed: Bool {
        get { state.withLock { $0.lowLightBoostAllowed } }
        set { state.withLock { $0.lowLightBoostAllowed = newValue } }
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
