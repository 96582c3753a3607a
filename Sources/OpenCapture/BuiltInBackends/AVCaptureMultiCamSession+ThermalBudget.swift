import SimulatedCamera

extension AVCaptureMultiCamSession {
    /// Pixels per second whose steady temperature reaches the shutdown threshold in the
    /// simulated cameras' thermal model (`ThermalModel`), the budget `systemPressureCost`
    /// measures against.
    static var sustainablePixelRate: Double {
        (ThermalModel.thresholds[3] - ThermalModel.ambient) / ThermalModel.risePerGigapixel * 1e9
    }
}
