import CLibcameraRuntime

/// What a libcamera camera's `controls()` offers (the plug-in's `OCLcControlLimits`), with
/// the conversions between libcamera's units and AVFoundation's.
struct LibcameraLimits: Sendable {
    /// `OC_LC_HAS_*` bits.
    var has: UInt32
    var minExposureTime: Int32
    var maxExposureTime: Int32
    var minAnalogueGain: Float
    var maxAnalogueGain: Float
    var minExposureValue: Float
    var maxExposureValue: Float
    var minLensPosition: Float
    var maxLensPosition: Float
    /// Microseconds; 0 when the camera does not say.
    var minFrameDuration: Int64
    var maxFrameDuration: Int64
    var maxScalerCrop: (Int32, Int32, Int32, Int32)
    /// Brightness, contrast, saturation: (minimum, maximum, default), when offered.
    var brightness: (Float, Float, Float)?
    var contrast: (Float, Float, Float)?
    var saturation: (Float, Float, Float)?

    init(_ l: OCLcControlLimits) {
        has = l.has
        minExposureTime = l.minExposureTime
        maxExposureTime = l.maxExposureTime
        minAnalogueGain = l.minAnalogueGain
        maxAnalogueGain = l.maxAnalogueGain
        minExposureValue = l.minExposureValue
        maxExposureValue = l.maxExposureValue
        minLensPosition = l.minLensPosition
        maxLensPosition = l.maxLensPosition
        minFrameDuration = l.minFrameDuration
        maxFrameDuration = l.maxFrameDuration
        maxScalerCrop = l.maxScalerCrop
        func offered(_ bit: Int, _ values: (Float, Float, Float)) -> (Float, Float, Float)? {
            l.has & UInt32(bit) != 0 ? values : nil
        }
        brightness = offered(OC_LC_HAS_BRIGHTNESS, (l.minBrightness, l.maxBrightness, l.defaultBrightness))
        contrast = offered(OC_LC_HAS_CONTRAST, (l.minContrast, l.maxContrast, l.defaultContrast))
        saturation = offered(OC_LC_HAS_SATURATION, (l.minSaturation, l.maxSaturation, l.defaultSaturation))
    }

    func offers(_ bit: Int) -> Bool { has & UInt32(bit) != 0 }

    /// Custom exposure needs AE off and both exposure time and gain.
    var supportsExposureControl: Bool {
        offers(OC_LC_HAS_AE_ENABLE) && offers(OC_LC_HAS_EXPOSURE_TIME) && offers(OC_LC_HAS_ANALOGUE_GAIN)
    }

    /// ISO = 100 × analogue gain.
    var isoRange: (Float, Float) {
        offers(OC_LC_HAS_ANALOGUE_GAIN) ? (minAnalogueGain * 100, maxAnalogueGain * 100) : (100, 100)
    }

    /// Apple's lens position (0 nearest ... 1 farthest) for libcamera's dioptres (0 is
    /// infinity, larger is nearer).
    func lensPosition(dioptres: Float) -> Float {
        let span = maxLensPosition - minLensPosition
        guard span > 0 else { return 1 }
        return min(max((maxLensPosition - dioptres) / span, 0), 1)
    }

    func dioptres(lensPosition: Float) -> Float {
        maxLensPosition - min(max(lensPosition, 0), 1) * (maxLensPosition - minLensPosition)
    }

    /// The largest crop shrunk by `zoomFactor` about its centre; nil without ScalerCrop.
    func scalerCrop(zoomFactor: Double) -> (Int32, Int32, Int32, Int32)? {
        guard offers(OC_LC_HAS_SCALER_CROP), maxScalerCrop.2 > 0, maxScalerCrop.3 > 0 else { return nil }
        let factor = max(zoomFactor, 1)
        let width = Int32((Double(maxScalerCrop.2) / factor).rounded())
        let height = Int32((Double(maxScalerCrop.3) / factor).rounded())
        return (maxScalerCrop.0 + (maxScalerCrop.2 - width) / 2, maxScalerCrop.1 + (maxScalerCrop.3 - height) / 2, width, height)
    }
}
