import CaptureCore
import Foundation

extension SimulatedCameraCatalog {
    /// The virtual devices built from the back cameras, as an iPhone Pro has them: the dual
    /// wide camera (ultra wide + wide) and the triple camera (ultra wide + wide + telephoto).
    ///
    /// A virtual device films through its widest constituent at zoom 1 (its formats report
    /// the ultra wide's field of view), and hands over to the next constituent when the zoom
    /// factor reaches that camera's switch-over factor: the ratio of the fields of view,
    /// tan(½·fov_ultraWide) / tan(½·fov_constituent) over the full 4:3 sensor width, so the
    /// picture keeps its framing across a switch (2.34 for the wide, 5.33 for the telephoto).
    /// From there frames come from that constituent's sensor and lens (its pixel size, full
    /// well, noise and aperture) at its own zoom factor, the device's over the switch-over
    /// factor. Colour stays the device's one calibration, as iPhones match their cameras'
    /// colour across a switch. Each format exists at sizes all constituents have, at the
    /// highest frame rate all of them reach; its largest zoom is the narrowest camera's
    /// times its switch-over factor.
    package static func virtualCameras() -> [SimulatedCamera] {
        virtualModels().map { SimulatedCamera(model: $0) }
    }

    /// The models behind `virtualCameras()`: dual wide, then triple.
    package static func virtualModels() -> [SimulatedCameraModel] {
        [
            virtual(
                [backUltraWide, backWide], id: "sim:back-dualwide", model: "OpenCapture Simulated Dual Wide",
                name: "Back Dual Wide Camera", type: "AVCaptureDeviceTypeBuiltInDualWideCamera"),
            virtual(
                [backUltraWide, backWide, backTelephoto], id: "sim:back-triple", model: "OpenCapture Simulated Triple",
                name: "Back Triple Camera", type: "AVCaptureDeviceTypeBuiltInTripleCamera"),
        ]
    }

    /// The switch-over factor of a camera with 4:3 field of view `fieldOfView` on a
    /// virtual device whose widest camera sees `widest` (degrees), to two decimals.
    package static func switchOverFactor(widest: Float, fieldOfView: Float) -> Double {
        let ratio = tan(Double(widest) * .pi / 360) / tan(Double(fieldOfView) * .pi / 360)
        return (ratio * 100).rounded() / 100
    }

    private static func virtual(
        _ parts: [SimulatedCameraModel], id: String, model: String, name: String, type: String
    ) -> SimulatedCameraModel {
        let widest = parts[0]
        let fov43 = { (camera: SimulatedCameraModel) in
            camera.descriptor.formats.first { 4 * $0.height == 3 * $0.width }?.fieldOfView ?? 0
        }
        let factors = parts.dropFirst().map { switchOverFactor(widest: fov43(widest), fieldOfView: fov43($0)) }
        let zoomReach = factors.last ?? 1
        var list = FormatListBuilder(fieldOfView43: 0, fieldOfView169: 0, minISO: 0, maxISO: 0)
        for spec in widest.descriptor.formats {
            let matches = parts.dropFirst().map { part in
                part.descriptor.formats.first { $0.width == spec.width && $0.height == spec.height && $0.isBinned == spec.isBinned }
            }
            guard matches.allSatisfy({ $0 != nil }) else { continue }
            let found = matches.compactMap { $0 }
            var merged = spec
            let top = ([spec] + found).map(\.maxFrameRate).min() ?? spec.maxFrameRate
            merged.frameRateRanges = spec.frameRateRanges.map { $0.lowerBound...min($0.upperBound, top) }
            merged.maxZoomFactor = (found.last?.maxZoomFactor ?? spec.maxZoomFactor) * zoomReach
            merged.isHDRSupported = ([spec] + found).allSatisfy(\.isHDRSupported)
            // Focus is the wide camera's: the device autofocuses as its focusing constituents do.
            merged.autoFocusSystem = found.first?.autoFocusSystem ?? spec.autoFocusSystem
            list.append(merged)
        }
        let presets = list.presetFormats
        var descriptor = DeviceDescriptor(
            uniqueID: id, modelID: model, localizedName: name, manufacturer: "OpenCapture", position: 1,
            deviceType: type, formats: list.formats, presetFormats: presets,
            defaultFormatIndex: presets["AVCaptureSessionPresetHigh"] ?? 0, lensAperture: widest.descriptor.lensAperture)
        descriptor.colorCalibration = parts[1].descriptor.colorCalibration
        descriptor.rawPhotoPixelFormats = widest.descriptor.rawPhotoPixelFormats
        descriptor.hasTorch = true
        descriptor.focus = parts[1].descriptor.focus
        var result = SimulatedCameraModel(descriptor: descriptor, sensor: widest.sensor, hasFlash: true)
        result.constituents = parts
        result.switchOverZoomFactors = factors
        return result
    }
}
