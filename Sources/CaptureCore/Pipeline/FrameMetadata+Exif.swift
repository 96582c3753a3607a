import Foundation

extension FrameMetadata {
    /// The sample-buffer attachment key of a video frame's Exif dictionary
    /// (`kCGImagePropertyExifDictionary`).
    package static let exifAttachmentKey = "{Exif}"

    /// The Exif dictionary an iPhone attaches to each video frame (`CMGetAttachment(sampleBuffer,
    /// key: kCGImagePropertyExifDictionary, …)`), from what this frame was exposed with: apps
    /// read `ISOSpeedRatings`, `ExposureTime` and `BrightnessValue` there (light meters, a
    /// scanner's torch prompt). Values the camera does not know are left out: a camera of
    /// unknown aperture (most V4L2 webcams) has no `FNumber`, `ApertureValue` or `BrightnessValue`.
    ///
    /// `BrightnessValue` is the APEX scene brightness Bv = Av + Tv − Sv, with Sv = log2(ISO /
    /// 3.125), corrected by how far the frame is from the exposure target
    /// (`exposureTargetOffset`, EV): the light the frame shows, whatever exposure made it.
    package var exifAttachment: [String: Any] {
        var exif: [String: Any] = [
            "PixelXDimension": width, "PixelYDimension": height, "SensingMethod": 2,
            // sRGB is 1; other colour spaces (P3) are "uncalibrated", as Apple writes them.
            "ColorSpace": colorSpace == 0 ? 1 : 65535,
            "ExposureMode": exposureState == .custom ? 1 : 0,
            // Auto (0) while the white balance follows the scene, manual (1) once locked.
            "WhiteBalance": whiteBalanceState == .locked ? 1 : 0,
            "ExposureBiasValue": Double(exposureTargetBias),
        ]
        let time = exposureDuration
        let hasExposure = time > 0 && time.isFinite && iso > 0
        if hasExposure {
            exif["ExposureTime"] = time
            exif["ShutterSpeedValue"] = -log2(time)
            exif["ISOSpeedRatings"] = [Int(iso.rounded())]
        }
        if lensAperture > 0 {
            let apertureValue = 2 * log2(Double(lensAperture))
            exif["FNumber"] = Double(lensAperture)
            exif["ApertureValue"] = apertureValue
            if hasExposure {
                exif["BrightnessValue"] = apertureValue - log2(time) - log2(Double(iso) / 3.125) + Double(exposureTargetOffset)
            }
        }
        return exif
    }
}
