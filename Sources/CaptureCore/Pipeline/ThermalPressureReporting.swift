/// A device's system pressure: 0 nominal, 1 fair, 2 serious, 3 critical, 4 shutdown, and
/// the contributing factors (`AVCaptureDevice.SystemPressureState.Factors` raw bits).
package struct SystemPressureReading: Sendable, Equatable {
    package var level: Int
    package var factors: UInt

    package init(level: Int, factors: UInt) {
        self.level = level
        self.factors = factors
    }
}

/// Devices that model their own heat (the simulated cameras' thermal model), so their
/// pressure is known between frames too: while interrupted at `.shutdown` the session
/// polls it to resume. Other devices report pressure in `FrameMetadata` only, and have no
/// thermal budget (a multi-cam session's `systemPressureCost` leaves them out).
///
/// Threads: any.
package protocol ThermalPressureReporting: AnyObject, Sendable {
    /// The pressure now.
    var systemPressure: SystemPressureReading { get }
    /// Pixels per second whose steady temperature reaches the shutdown threshold: the
    /// budget a multi-cam session's `systemPressureCost` measures the camera against.
    var sustainablePixelRate: Double { get }
}
