import Foundation

/// A device's format settings (`DeviceCore.format`): the active format, the frame
/// durations asked for, the colour space and video HDR. One concern because a new format
/// resets the others together.
struct FormatSettings: Sendable {
    /// The index of the active format in the device's `formats`.
    var index: Int
    /// `.invalid` means the format's default.
    var minFrameDuration = CMTime.invalid
    var maxFrameDuration = CMTime.invalid
    /// The raw `AVCaptureColorSpace` frames are rendered in.
    var colorSpace = 0
    /// Video HDR: whether the device adjusts it itself, else whether it is on.
    var automaticallyAdjustsVideoHDR = true
    var videoHDREnabled = false

    init(index: Int) { self.index = index }

    /// Whether the device adjusts video HDR itself, and whether it is on when it does not.
    var videoHDR: (automatic: Bool, enabled: Bool) { (automaticallyAdjustsVideoHDR, videoHDREnabled) }
}

extension DeviceUnit<FormatSettings> {
    /// Makes format `index` active: the frame durations return to its defaults, manual video
    /// HDR turns off, and a colour space it lacks falls back to sRGB, as on iOS. Returns
    /// whether the format changed.
    func select(_ index: Int, colorSpaces: [Int]) -> Bool {
        withLock { settings in
            let changed = settings.index != index
            settings.index = index
            settings.minFrameDuration = .invalid
            settings.maxFrameDuration = .invalid
            settings.videoHDREnabled = false
            if !colorSpaces.contains(settings.colorSpace) { settings.colorSpace = 0 }
            return changed
        }
    }

    /// Returns both frame durations to the format's defaults.
    func resetFrameDurations() {
        withLock {
            $0.minFrameDuration = .invalid
            $0.maxFrameDuration = .invalid
        }
    }

    /// Hands video HDR to the device or takes it back; taking it back keeps it as it is
    /// now (`current`, what the device last did).
    func setAutomaticallyAdjustsVideoHDR(_ automatic: Bool, current: Bool) {
        withLock { settings in
            if settings.automaticallyAdjustsVideoHDR && !automatic { settings.videoHDREnabled = current }
            settings.automaticallyAdjustsVideoHDR = automatic
        }
    }
}
