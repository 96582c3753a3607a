import CaptureCore

/// The built-in simulated cameras, modelled on a current iPhone's.
///
/// Sensor parameters (all 4032×3024 photosites, 12 MP, colour at every site):
///
/// | camera | pitch | full well | read noise | peak QE | dark | ADC | black | base ISO |
/// |---|---|---|---|---|---|---|---|---|
/// | back wide | 1.9 µm | 11 000 e⁻ | 1.8 e⁻ | 0.68 | 4 e⁻/s | 12 bit | 256 | 34 |
/// | back ultra wide | 1.0 µm | 4 800 e⁻ | 3.0 e⁻ | 0.60 | 6 e⁻/s | 10 bit | 64 | 40 |
/// | back telephoto | 1.0 µm | 4 500 e⁻ | 2.5 e⁻ | 0.61 | 6 e⁻/s | 10 bit | 64 | 40 |
/// | front | 1.0 µm | 4 600 e⁻ | 2.4 e⁻ | 0.62 | 7 e⁻/s | 10 bit | 64 | 40 |
///
/// Only the back wide camera has low-light boost (`DeviceDescriptor.supportsLowLightBoost`),
/// lengthening frames to 1/15 s in dim scenes when allowed (see `AutoExposure`).
///
/// Analog gain reaches 16× on all; higher ISOs are digital gain in the ISP. The three back
/// cameras have a flash (`FlashLight`) and torch (`Torch`), the front one neither; focus
/// (contrast-detection autofocus, the ultra wide fixed-focus) is in
/// `SimulatedCameraCatalog+Focus` and `FocusLens`. Values sit in
/// the range docs `color-and-sensor.md` §5 gives for phone sensors (IMX363: 1.4 µm,
/// 6 000 e⁻, 10 bit, black 64).
///
/// Colour: each camera has DNG-style colour matrices (XYZ → camera native, row-major) for
/// calibration illuminants A (2856 K) and D65 (6504 K), published as
/// `DeviceDescriptor.colorCalibration` with `maxWhiteBalanceGain` 4 as on iPhones. They
/// were derived (not measured) from a smartphone-like sensor model: camera RGB =
/// diag(q)·C·(XYZ → linear sRGB), where C is a channel-crosstalk matrix with rows summing to
/// 1 (broad, overlapping colour filters: the red channel sees 41–45 % green, blue 29–32 %)
/// and q the channels' sensitivity to D65 white, then scaled so that max(CM·XYZ(D50)) = 1
/// as DNG normalises them. Illuminant A's matrix uses a slightly different C (red and blue
/// 2 % less green, green 1 % more red), as a non-colorimetric sensor's best fits under two
/// lights differ. Resulting gains (red, green, blue):
///
/// | camera | C red row / blue row, q | gains 2850 K | gains D65 | gains 7500 K |
/// |---|---|---|---|---|
/// | back wide | .55 .42 .03 / .03 .30 .67, q .50 1 .62 | 1.26 1 3.15 | 2.00 1 1.61 | 2.05 1 1.46 |
/// | back ultra wide | .52 .45 .03 / .03 .32 .65, q .47 1 .60 | 1.37 1 3.19 | 2.13 1 1.67 | 2.18 1 1.52 |
/// | back telephoto | .56 .41 .03 / .03 .29 .68, q .52 1 .63 | 1.21 1 3.16 | 1.92 1 1.59 | 1.96 1 1.43 |
/// | front | .53 .44 .03 / .03 .31 .66, q .49 1 .61 | 1.31 1 3.20 | 2.04 1 1.64 | 2.09 1 1.49 |
///
/// Below about 2300 K the blue gain needed exceeds 4, so such light cannot be fully
/// neutralised, as on a phone. The matrices are the camera's true response in the
/// simulation: the scene is rendered through them (interpolated at the scene illuminant).
package enum SimulatedCameraCatalog {
    /// `maxWhiteBalanceGain` of every simulated camera.
    package static let maxWhiteBalanceGain: Float = 4
    /// Back wide, back ultra wide, back telephoto, front wide, in that order.
    package static func builtInCameras() -> [SimulatedCamera] {
        models().map { SimulatedCamera(model: $0) }
    }

    /// The models behind `builtInCameras()`.
    package static func models() -> [SimulatedCameraModel] {
        [backWide, backUltraWide, backTelephoto, frontWide]
    }

    static var backWide: SimulatedCameraModel {
        var f = FormatListBuilder(fieldOfView43: 73.0, fieldOfView169: 69.4, minISO: 34, maxISO: 3264)
        addCommonSmallFormats(&f)
        f.add(1280, 720, maxFPS: 60)
        f.add(1280, 720, maxFPS: 240, zoom: 8, binned: true)
        f.add(1920, 1080, maxFPS: 60, hdr: true)
        f.add(1920, 1080, maxFPS: 120, zoom: 8, binned: true)
        f.add(1920, 1440, maxFPS: 30, hdr: true)
        f.add(3840, 2160, maxFPS: 60, zoom: 8, hdr: true)
        f.add(4032, 3024, maxFPS: 30, hdr: true)
        addTenBitFormats(&f, uhd: true)
        let sensor = SensorParameters(
            width: 4032, height: 3024, pixelPitch: 1.9, fullWell: 11000, readNoise: 1.8,
            quantumEfficiency: 0.68, darkCurrent: 4, bitDepth: 12, blackLevel: 256, baseISO: 34,
            maxAnalogGain: 16)
        return model(
            f, id: "sim:back-wide", model: "OpenCapture Simulated Wide", name: "Back Camera", position: 1,
            type: "AVCaptureDeviceTypeBuiltInWideAngleCamera", aperture: 1.78, sensor: sensor,
            lowLightBoost: true, minimumFocusDistance: 0.15,
            color: calibration(
                standardA: [0.7534, -0.0681, -0.1216, -0.4056, 1.3113, 0.0968, -0.0868, 0.2163, 0.4641],
                d65: [0.7134, -0.0330, -0.1166, -0.4406, 1.3313, 0.1133, -0.1004, 0.2441, 0.4533]))
    }

    static var backUltraWide: SimulatedCameraModel {
        var f = FormatListBuilder(fieldOfView43: 120.0, fieldOfView169: 108.3, minISO: 40, maxISO: 2560)
        addCommonSmallFormats(&f)
        f.add(1280, 720, maxFPS: 60)
        f.add(1920, 1080, maxFPS: 60, hdr: true)
        f.add(1920, 1080, maxFPS: 120, zoom: 8, binned: true)
        f.add(1920, 1440, maxFPS: 30)
        f.add(3840, 2160, maxFPS: 30, zoom: 8, hdr: true)
        f.add(4032, 3024, maxFPS: 30)
        addTenBitFormats(&f, uhd: true)
        let sensor = SensorParameters(
            width: 4032, height: 3024, pixelPitch: 1.0, fullWell: 4800, readNoise: 3.0,
            quantumEfficiency: 0.60, darkCurrent: 6, bitDepth: 10, blackLevel: 64, baseISO: 40,
            maxAnalogGain: 16)
        return model(
            f, id: "sim:back-ultrawide", model: "OpenCapture Simulated Ultra Wide", name: "Back Ultra Wide Camera",
            position: 1, type: "AVCaptureDeviceTypeBuiltInUltraWideCamera", aperture: 2.2, sensor: sensor,
            color: calibration(
                standardA: [0.6474, -0.0144, -0.1065, -0.3518, 1.2554, 0.1017, -0.0967, 0.2352, 0.4368],
                d65: [0.6094, 0.0188, -0.1018, -0.3865, 1.2751, 0.1183, -0.1099, 0.2622, 0.4263]))
    }

    static var backTelephoto: SimulatedCameraModel {
        var f = FormatListBuilder(fieldOfView43: 36.0, fieldOfView169: 34.0, minISO: 40, maxISO: 2560)
        addCommonSmallFormats(&f)
        f.add(1280, 720, maxFPS: 60)
        f.add(1920, 1080, maxFPS: 60, hdr: true)
        f.add(1920, 1440, maxFPS: 30)
        f.add(3840, 2160, maxFPS: 60, zoom: 8, hdr: true)
        f.add(4032, 3024, maxFPS: 30)
        addTenBitFormats(&f, uhd: true)
        let sensor = SensorParameters(
            width: 4032, height: 3024, pixelPitch: 1.0, fullWell: 4500, readNoise: 2.5,
            quantumEfficiency: 0.61, darkCurrent: 6, bitDepth: 10, blackLevel: 64, baseISO: 40,
            maxAnalogGain: 16)
        return model(
            f, id: "sim:back-tele", model: "OpenCapture Simulated Telephoto", name: "Back Telephoto Camera",
            position: 1, type: "AVCaptureDeviceTypeBuiltInTelephotoCamera", aperture: 2.8, sensor: sensor,
            minimumFocusDistance: 0.45,
            color: calibration(
                standardA: [0.8040, -0.0889, -0.1290, -0.4151, 1.3293, 0.0861, -0.0813, 0.2058, 0.4770],
                d65: [0.7626, -0.0526, -0.1238, -0.4500, 1.3493, 0.1025, -0.0951, 0.2338, 0.4660]))
    }

    static var frontWide: SimulatedCameraModel {
        var f = FormatListBuilder(fieldOfView43: 65.0, fieldOfView169: 61.0, minISO: 40, maxISO: 2560)
        addCommonSmallFormats(&f)
        f.add(1280, 720, maxFPS: 60)
        f.add(1920, 1080, maxFPS: 60, hdr: true)
        f.add(1920, 1440, maxFPS: 30, hdr: true)
        f.add(4032, 3024, maxFPS: 30, hdr: true)
        addTenBitFormats(&f, uhd: false)
        let sensor = SensorParameters(
            width: 4032, height: 3024, pixelPitch: 1.0, fullWell: 4600, readNoise: 2.4,
            quantumEfficiency: 0.62, darkCurrent: 7, bitDepth: 10, blackLevel: 64, baseISO: 40,
            maxAnalogGain: 16)
        return model(
            f, id: "sim:front-wide", model: "OpenCapture Simulated Front", name: "Front Camera", position: 2,
            type: "AVCaptureDeviceTypeBuiltInWideAngleCamera", aperture: 1.9, sensor: sensor, minimumFocusDistance: 0.25,
            color: calibration(
                standardA: [0.6944, -0.0322, -0.1135, -0.3615, 1.2735, 0.0910, -0.0917, 0.2255, 0.4493],
                d65: [0.6550, 0.0023, -0.1085, -0.3961, 1.2933, 0.1075, -0.1050, 0.2528, 0.4386]))
    }

    /// The 10-bit ('x420', HLG-capable) formats, after the 8-bit ones: 1080p up to 60 fps,
    /// and on back cameras 4K up to 30 fps, as iPhones list them.
    private static func addTenBitFormats(_ f: inout FormatListBuilder, uhd: Bool) {
        f.add(1920, 1080, maxFPS: 60, tenBit: true)
        if uhd { f.add(3840, 2160, maxFPS: 30, zoom: 8, tenBit: true) }
    }

    /// The 30 fps formats up to 960×540 every camera has.
    private static func addCommonSmallFormats(_ f: inout FormatListBuilder) {
        f.add(192, 144, maxFPS: 30)
        f.add(352, 288, maxFPS: 30)
        f.add(480, 360, maxFPS: 30)
        f.add(640, 480, maxFPS: 30)
        f.add(960, 540, maxFPS: 30)
    }

    private static func model(
        _ formats: FormatListBuilder, id: String, model: String, name: String, position: Int, type: String,
        aperture: Float, sensor: SensorParameters, lowLightBoost: Bool = false, minimumFocusDistance: Double? = nil,
        color: ColorCalibration
    ) -> SimulatedCameraModel {
        let presets = formats.presetFormats
        var descriptor = DeviceDescriptor(
            uniqueID: id, modelID: model, localizedName: name, manufacturer: "OpenCapture", position: position,
            deviceType: type, formats: formats.formats, presetFormats: presets,
            defaultFormatIndex: presets["AVCaptureSessionPresetHigh"] ?? 0, lensAperture: aperture)
        descriptor.colorCalibration = color
        // Every simulated sensor is an RGGB mosaic, which raw photos carry as it is.
        descriptor.rawPhotoPixelFormats = [PixelFormat.bayerRGGB14.rawValue]
        // Low-light boost, as iPhones offered it on some cameras: here the back wide only.
        descriptor.supportsLowLightBoost = lowLightBoost
        // The back cameras share the LED flash; a front camera's "flash" is the screen,
        // which is not modelled.
        descriptor.hasTorch = position == 1
        var result = SimulatedCameraModel(descriptor: descriptor, sensor: sensor, hasFlash: position == 1)
        describeFocus(of: &result, minimumFocusDistance: minimumFocusDistance)
        return result
    }

    /// A calibration from XYZ → camera matrices measured under illuminants A and D65.
    private static func calibration(standardA: [Double], d65: [Double]) -> ColorCalibration {
        ColorCalibration(
            colorMatrix1: standardA, temperature1: 2856, colorMatrix2: d65, temperature2: 6504,
            maxWhiteBalanceGain: maxWhiteBalanceGain)
    }
}
