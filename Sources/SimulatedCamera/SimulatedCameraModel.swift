import CaptureCore

/// What a simulated camera is: the device as AVFoundation describes it, and the sensor
/// and lens behind it.
package struct SimulatedCameraModel: Sendable {
    package var descriptor: DeviceDescriptor
    package var sensor: SensorParameters
    /// Whether the camera has a flash (`FlashLight`) for its stills.
    package var hasFlash: Bool
    /// A virtual device's physical cameras, widest first (empty for a physical camera).
    package var constituents: [SimulatedCameraModel] = []
    /// A virtual device's zoom factors at which each constituent after the first takes
    /// over: `switchOverZoomFactors[i]` is where `constituents[i + 1]` begins (ascending).
    package var switchOverZoomFactors: [Double] = []

    package init(descriptor: DeviceDescriptor, sensor: SensorParameters, hasFlash: Bool = false) {
        self.descriptor = descriptor
        self.sensor = sensor
        self.hasFlash = hasFlash
    }

    /// Whether the model is a virtual device made of several cameras.
    package var isVirtual: Bool { !constituents.isEmpty }

    /// The constituent that films at zoom factor `zoom`: the last one whose switch-over
    /// factor `zoom` has reached (0, the widest, below the first).
    package func constituentIndex(forZoom zoom: Double) -> Int {
        switchOverZoomFactors.lastIndex { zoom >= $0 - 1e-9 }.map { $0 + 1 } ?? 0
    }

    /// The zoom factor at which constituent `index` films its own full field of view (1
    /// for the widest).
    package func baseZoom(ofConstituent index: Int) -> Double {
        index == 0 ? 1 : switchOverZoomFactors[index - 1]
    }

    /// The camera filming for constituent `index`: its sensor and lens with this device's
    /// colour calibration (a virtual device matches its cameras' colour); this model itself
    /// when it is physical.
    package func physical(_ index: Int) -> SimulatedCameraModel {
        guard !constituents.isEmpty else { return self }
        var part = constituents[min(max(index, 0), constituents.count - 1)]
        part.descriptor.colorCalibration = descriptor.colorCalibration
        return part
    }

    /// The lens as a format sees it: the device's fixed aperture and the format's field of
    /// view over the full sensor width (formats with a narrower field are crops).
    package func optics(for format: DeviceFormatSpec) -> Optics {
        Optics(fNumber: descriptor.lensAperture, fieldOfView: format.fieldOfView, sensorWidth: sensor.activeWidth)
    }

    /// The sensor's colour response, from the descriptor's calibration (the back wide
    /// camera's if a model has none).
    var response: CameraResponse {
        CameraResponse(descriptor.colorCalibration ?? SimulatedCameraCatalog.backWide.descriptor.colorCalibration!)
    }
}
