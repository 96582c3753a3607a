import CaptureCore

/// Exposure modes and settings, as `ControlRequest` sets them at a frame boundary.
extension AutoExposure {
    /// What survives a stop and start: the mode and the settings that steer the loop.
    package struct Memory: Sendable, Equatable {
        package var state = ExposureState.continuous
        /// Exposure target bias, EV.
        package var bias: Float = 0
        /// Cap on the loop's exposure time, seconds; 0 for the format's own limits.
        package var activeMaxExposure = 0.0
        /// Where the loop meters (Apple's coordinates over the unrotated sensor image).
        package var pointOfInterest = PointOfInterest(x: 0.5, y: 0.5)
        /// The exposure time and ISO held while locked or custom.
        package var heldDuration: Double?
        package var heldISO: Float?
        /// Whether low-light boost may turn on (`automaticallyEnablesLowLightBoostWhenAvailable`).
        package var lowLightBoostAllowed = false

        package init() {}

        /// Whether the exposure is fixed (locked or custom) rather than steered.
        package var isManual: Bool { state == .locked || state == .custom }
    }

    /// The mode in force.
    package var state: ExposureState { memory.state }

    /// Applies the exposure fields of `request`: settings first, so a mode set in the same
    /// request already uses them.
    package mutating func apply(_ request: ControlRequest) {
        if let bias = request.exposureTargetBias { memory.bias = min(max(bias, -8), 8) }
        if let point = request.exposurePointOfInterest {
            memory.pointOfInterest = PointOfInterest(x: min(max(point.x, 0), 1), y: min(max(point.y, 0), 1))
        }
        if let cap = request.activeMaxExposureDuration {
            memory.activeMaxExposure = cap > 0 ? min(max(cap, limits.minExposure), limits.maxExposure) : 0
            // Re-split the same total under the new cap (only the loop obeys it).
            if !memory.isManual { divide(totalExposure: totalExposure) }
        }
        if let allowed = request.lowLightBoostAllowed {
            memory.lowLightBoostAllowed = allowed
            if !isLowLightBoostAvailable { setLowLightBoost(false) }
        }
        if let control = request.exposure { apply(control) }
    }

    /// Applies an exposure mode command.
    package mutating func apply(_ control: ExposureControl) {
        switch control {
        case .continuous, .autoOnce:
            memory.state = control == .continuous ? .continuous : .autoOnce
            memory.heldDuration = nil
            memory.heldISO = nil
            settledCount = 0
            isAdjusting = true
            // Leaving a custom exposure: split the same total the way the loop does.
            divide(totalExposure: totalExposure)
        case .lockCurrent:
            lock()
        case .custom(let duration, let newISO):
            memory.state = .custom
            hold(duration: duration ?? exposureDuration, iso: newISO ?? iso)
        }
    }

    /// Holds the exposure in use now.
    mutating func lock() {
        memory.state = .locked
        hold(duration: exposureDuration, iso: iso)
    }

    /// Fixes time and ISO, clamped to the format's ranges; the frame lengthens to fit a
    /// longer exposure, as on iOS.
    mutating func hold(duration: Double, iso newISO: Float) {
        isLowLightBoostEnabled = false  // a fixed exposure is not auto exposure's boost
        exposureDuration = min(max(duration, limits.minExposure), limits.maxExposure)
        iso = min(max(newISO, limits.minISO), limits.maxISO)
        frameDuration = max(limits.minFrameDuration, exposureDuration)
        memory.heldDuration = exposureDuration
        memory.heldISO = iso
        isAdjusting = false
        settledCount = 0
    }
}
