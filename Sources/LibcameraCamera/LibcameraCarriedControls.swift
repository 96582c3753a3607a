import CLibcameraRuntime
import Synchronization

/// The libcamera controls in force on a camera: every control sent with a request since the
/// camera was made, the newest value of each. libcamera keeps controls only for the life of
/// one `start`, so a stream started again (a new format, the still role's configuration and
/// back) starts with these, and the user's exposure, white balance, zoom and image controls
/// survive the restart. Frame duration limits are left out: each stream sets its own.
final class LibcameraCarriedControls: Sendable {
    private let controls = Mutex(OCLcControls())

    /// Notes the controls a request carries.
    func note(_ sent: OCLcControls) {
        controls.withLock { $0.merge(sent) }
    }

    /// What a new stream starts with.
    var current: OCLcControls { controls.withLock { $0 } }
}

extension OCLcControls {
    /// Takes every control `newer` sets (its `set` bits) over this one's, but the frame
    /// duration limits.
    mutating func merge(_ newer: OCLcControls) {
        func take(_ bit: Int, _ copy: (inout OCLcControls) -> Void) {
            guard newer.set & UInt32(bit) != 0 else { return }
            copy(&self)
            set |= UInt32(bit)
        }
        take(OC_LC_HAS_AE_ENABLE) { $0.aeEnable = newer.aeEnable }
        take(OC_LC_HAS_EXPOSURE_TIME) { $0.exposureTime = newer.exposureTime }
        take(OC_LC_HAS_ANALOGUE_GAIN) { $0.analogueGain = newer.analogueGain }
        take(OC_LC_HAS_EXPOSURE_VALUE) { $0.exposureValue = newer.exposureValue }
        take(OC_LC_HAS_AWB_ENABLE) { $0.awbEnable = newer.awbEnable }
        take(OC_LC_HAS_COLOUR_GAINS) { $0.colourGains = newer.colourGains }
        take(OC_LC_HAS_COLOUR_TEMPERATURE) { $0.colourTemperature = newer.colourTemperature }
        take(OC_LC_HAS_AF_MODE) { $0.afMode = newer.afMode }
        take(OC_LC_HAS_LENS_POSITION) { $0.lensPosition = newer.lensPosition }
        take(OC_LC_HAS_SCALER_CROP) { $0.scalerCrop = newer.scalerCrop }
        take(OC_LC_HAS_BRIGHTNESS) { $0.brightness = newer.brightness }
        take(OC_LC_HAS_CONTRAST) { $0.contrast = newer.contrast }
        take(OC_LC_HAS_SATURATION) { $0.saturation = newer.saturation }
    }
}
