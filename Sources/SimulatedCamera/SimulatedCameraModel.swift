import CaptureCore

/// What a simulated camera is: the device as AVFoundation describes it, and the sensor
/// and lens behind it.
package struct SimulatedCameraModel: Sendable {
    package var descriptor: DeviceDescriptor
    package var sensor: SensorParameters
    /// Whether the camera has a flash (`FlashLight`) for its stills.
    package var hasFlash: Bool

    package init(descriptor: DeviceDescriptor, sensor: SensorParameters, hasFlash: Bool = false) {
        self.descriptor = descriptor
        self.sensor = sensor
        self.hasFlash = hasFlash
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
