import CaptureCore

// What a simulated camera can do beyond `CaptureBackend`, reached by the API layer through
// CaptureCore's capability protocols (never by this type's name).

extension SimulatedCamera: ThermalPressureReporting {
    package var systemPressure: SystemPressureReading {
        let pressure = thermal.pressure
        return SystemPressureReading(level: pressure.level, factors: pressure.factors)
    }

    /// The thermal model's: 120 °C per gigapixel per second above 25 °C, shutdown at 70 °C.
    package var sustainablePixelRate: Double {
        (ThermalModel.thresholds[3] - ThermalModel.ambient) / ThermalModel.risePerGigapixel * 1e9
    }
}

extension SimulatedCamera: LensDescribing {
    package func focalLength(for format: DeviceFormatSpec) -> Double { model.optics(for: format).focalLength }

    /// A back camera's field of view against the back wide camera's (both at 4:3): the
    /// ultra wide shows 0.5; front cameras 1.
    package var displayVideoZoomFactorMultiplier: Double {
        guard model.descriptor.position == 1 else { return 1 }
        let widest = model.isVirtual ? model.constituents[0] : model
        let fov = { (m: SimulatedCameraModel) in m.descriptor.formats.first { 4 * $0.height == 3 * $0.width }?.fieldOfView ?? 0 }
        let wide = SimulatedCameraCatalog.models()[0]
        return 1 / SimulatedCameraCatalog.switchOverFactor(widest: fov(widest), fieldOfView: fov(wide))
    }
}

extension SimulatedCamera: ConstituentCameras {
    package var constituentUniqueIDs: [String] { model.constituents.map(\.descriptor.uniqueID) }
    package var switchOverZoomFactors: [Double] { model.switchOverZoomFactors }
    package func constituentIndex(forZoom zoom: Double) -> Int { model.constituentIndex(forZoom: zoom) }
    package func baseZoom(ofConstituent index: Int) -> Double { model.baseZoom(ofConstituent: index) }
}

extension SimulatedMicrophone: AudioPortDescribing {
    /// It plays an iPhone's built-in microphone.
    package var audioPortKind: AudioPortKind { .builtInMicrophone }
    package var framesPerBuffer: Int { Self.framesPerBuffer }
}
