import Foundation

/// A device's exposure settings as last set through the API (`DeviceCore.exposure`): the
/// mode and the request that set it, the metering point, the target bias, the cap on
/// exposure time, whether low-light boost may turn on, and face-driven auto exposure. What
/// the camera exposed with (time, ISO, offset, boost) is the newest frame's.
struct ExposureSettings: Sendable {
    var mode = Requested(AVCaptureDevice.ExposureMode.continuousAutoExposure)
    var pointOfInterest = CGPoint(x: 0.5, y: 0.5)
    var targetBias: Float = 0
    /// `.invalid` means the format's default.
    var maxExposureDuration = CMTime.invalid
    var lowLightBoostAllowed = false
    /// Face-driven auto exposure (iOS 15.4): whether the device decides, and the value set when it does not.
    var automaticallyAdjustsFaceDriven = true
    var faceDriven = true

    /// The mode in force given the newest frame: `.autoExpose` reads `.locked` once a frame
    /// that carries its request has settled.
    func mode(after frame: FrameMetadata) -> AVCaptureDevice.ExposureMode {
        if mode.value == .autoExpose, mode.isAcknowledged(by: frame), frame.exposureState == .locked { return .locked }
        return mode.value
    }
}

extension DeviceUnit<ExposureSettings> {
    func mode(after frame: FrameMetadata) -> AVCaptureDevice.ExposureMode { withLock { $0 }.mode(after: frame) }

    /// Drops the cap (a new format resets it, as on iOS); returns whether one was set.
    func resetMaxExposureDuration() -> Bool {
        withLock { settings in
            defer { settings.maxExposureDuration = .invalid }
            return settings.maxExposureDuration.isValid
        }
    }
}
