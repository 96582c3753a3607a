import CaptureCore

extension AVCaptureMultiCamSession {
    /// Each camera input's pixel rate as a share of its own thermal budget (its backend's
    /// `ThermalPressureReporting.sustainablePixelRate`), summed; a camera whose backend has
    /// no thermal model (V4L2, a third party's) adds nothing. `systemPressureCost`.
    var thermalShare: Double {
        deviceInputs.reduce(0) { total, input in
            guard let thermal = input.device.backend as? any ThermalPressureReporting else { return total }
            return total + Self.pixelRate(of: input.device) / thermal.sustainablePixelRate
        }
    }
}
