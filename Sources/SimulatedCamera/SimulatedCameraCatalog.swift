import CaptureCore

/// The built-in simulated cameras, modelled on a current iPhone's.
///
/// Sensor parameters (all 4032×3024 photosites, 12 MP, colour at every site):
///
/// | camera | pitch | full well | read noise | QE R/G/B | dark | ADC | black | base ISO |
/// |---|---|---|---|---|---|---|---|---|
/// | back wide | 1.9 µm | 11 000 e⁻ | 1.8 e⁻ | 0.52/0.68/0.56 | 4 e⁻/s | 12 bit | 256 | 34 |
/// | back ultra wide | 1.0 µm | 4 800 e⁻ | 2.2 e⁻ | 0.45/0.60/0.48 | 6 e⁻/s | 10 bit | 64 | 40 |
/// | back telephoto | 1.0 µm | 4 500 e⁻ | 2.5 e⁻ | 0.46/0.61/0.50 | 6 e⁻/s | 10 bit | 64 | 40 |
/// | front | 1.0 µm | 4 600 e⁻ | 2.4 e⁻ | 0.47/0.62/0.50 | 7 e⁻/s | 10 bit | 64 | 40 |
///
/// Analog gain reaches 16× on all; higher ISOs are digital gain in the ISP. Values sit in
/// the range docs `color-and-sensor.md` §5 gives for phone sensors (IMX363: 1.4 µm,
/// 6 000 e⁻, 10 bit, black 64).
package enum SimulatedCameraCatalog {
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
        let sensor = SensorParameters(
            width: 4032, height: 3024, pixelPitch: 1.9, fullWell: 11000, readNoise: 1.8,
            quantumEfficiency: SIMD3(0.52, 0.68, 0.56), darkCurrent: 4, bitDepth: 12, blackLevel: 256, baseISO: 34,
            maxAnalogGain: 16)
        return model(
            f, id: "sim:back-wide", model: "OpenCapture Simulated Wide", name: "Back Camera", position: 1,
            type: "AVCaptureDeviceTypeBuiltInWideAngleCamera", aperture: 1.78, sensor: sensor)
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
        let sensor = SensorParameters(
            width: 4032, height: 3024, pixelPitch: 1.0, fullWell: 4800, readNoise: 2.2,
            quantumEfficiency: SIMD3(0.45, 0.60, 0.48), darkCurrent: 6, bitDepth: 10, blackLevel: 64, baseISO: 40,
            maxAnalogGain: 16)
        return model(
            f, id: "sim:back-ultrawide", model: "OpenCapture Simulated Ultra Wide", name: "Back Ultra Wide Camera",
            position: 1, type: "AVCaptureDeviceTypeBuiltInUltraWideCamera", aperture: 2.2, sensor: sensor)
    }

    static var backTelephoto: SimulatedCameraModel {
        var f = FormatListBuilder(fieldOfView43: 36.0, fieldOfView169: 34.0, minISO: 40, maxISO: 2560)
        addCommonSmallFormats(&f)
        f.add(1280, 720, maxFPS: 60)
        f.add(1920, 1080, maxFPS: 60, hdr: true)
        f.add(1920, 1440, maxFPS: 30)
        f.add(3840, 2160, maxFPS: 60, zoom: 8, hdr: true)
        f.add(4032, 3024, maxFPS: 30)
        let sensor = SensorParameters(
            width: 4032, height: 3024, pixelPitch: 1.0, fullWell: 4500, readNoise: 2.5,
            quantumEfficiency: SIMD3(0.46, 0.61, 0.50), darkCurrent: 6, bitDepth: 10, blackLevel: 64, baseISO: 40,
            maxAnalogGain: 16)
        return model(
            f, id: "sim:back-tele", model: "OpenCapture Simulated Telephoto", name: "Back Telephoto Camera",
            position: 1, type: "AVCaptureDeviceTypeBuiltInTelephotoCamera", aperture: 2.8, sensor: sensor)
    }

    static var frontWide: SimulatedCameraModel {
        var f = FormatListBuilder(fieldOfView43: 65.0, fieldOfView169: 61.0, minISO: 40, maxISO: 2560)
        addCommonSmallFormats(&f)
        f.add(1280, 720, maxFPS: 60)
        f.add(1920, 1080, maxFPS: 60, hdr: true)
        f.add(1920, 1440, maxFPS: 30, hdr: true)
        f.add(4032, 3024, maxFPS: 30, hdr: true)
        let sensor = SensorParameters(
            width: 4032, height: 3024, pixelPitch: 1.0, fullWell: 4600, readNoise: 2.4,
            quantumEfficiency: SIMD3(0.47, 0.62, 0.50), darkCurrent: 7, bitDepth: 10, blackLevel: 64, baseISO: 40,
            maxAnalogGain: 16)
        return model(
            f, id: "sim:front-wide", model: "OpenCapture Simulated Front", name: "Front Camera", position: 2,
            type: "AVCaptureDeviceTypeBuiltInWideAngleCamera", aperture: 1.9, sensor: sensor)
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
        aperture: Float, sensor: SensorParameters
    ) -> SimulatedCameraModel {
        let presets = formats.presetFormats
        let descriptor = DeviceDescriptor(
            uniqueID: id, modelID: model, localizedName: name, manufacturer: "OpenCapture", position: position,
            deviceType: type, formats: formats.formats, presetFormats: presets,
            defaultFormatIndex: presets["AVCaptureSessionPresetHigh"] ?? 0, lensAperture: aperture)
        return SimulatedCameraModel(descriptor: descriptor, sensor: sensor)
    }
}
