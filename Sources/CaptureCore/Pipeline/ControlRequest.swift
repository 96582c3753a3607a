/// A change to a device's controls, queued by the API layer and applied by the backend at
/// a frame boundary. The first frame that carries it has `FrameMetadata.appliedRequest`
/// >= `id`, which is how completion handlers learn that frame's timestamp.
package struct ControlRequest: Sendable, Equatable {
    /// Increasing per device; 0 is never used.
    package var id: UInt64
    package var whiteBalance: WhiteBalanceControl?
    package var exposure: ExposureControl?
    /// Exposure target bias in EV (`exposureTargetBias`).
    package var exposureTargetBias: Float?
    /// Where auto exposure meters, in Apple's coordinates: (0,0) top-left, (1,1) bottom-right
    /// of the unrotated sensor image.
    package var exposurePointOfInterest: PointOfInterest?
    /// The longest exposure auto exposure may use, seconds; 0 restores the format's default.
    package var activeMaxExposureDuration: Double?
    /// Whether auto exposure may switch low-light boost on in dim scenes
    /// (`automaticallyEnablesLowLightBoostWhenAvailable`).
    package var lowLightBoostAllowed: Bool?
    /// Focus, zoom and torch commands (see `LensControl.swift`).
    package var focus: FocusControl? = nil
    package var zoom: ZoomControl? = nil
    package var torch: TorchControl? = nil

    package init(
        id: UInt64, whiteBalance: WhiteBalanceControl? = nil, exposure: ExposureControl? = nil,
        exposureTargetBias: Float? = nil, exposurePointOfInterest: PointOfInterest? = nil, activeMaxExposureDuration: Double? = nil,
        lowLightBoostAllowed: Bool? = nil
    ) {
        self.lowLightBoostAllowed = lowLightBoostAllowed
        self.id = id
        self.whiteBalance = whiteBalance
        self.exposure = exposure
        self.exposureTargetBias = exposureTargetBias
        self.exposurePointOfInterest = exposurePointOfInterest
        self.activeMaxExposureDuration = activeMaxExposureDuration
    }
}

/// A point in Apple's device coordinates.
package struct PointOfInterest: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Exposure commands, with `AVCaptureDevice.ExposureMode`'s meaning.
package enum ExposureControl: Sendable, Equatable {
    /// Hold the exposure in use now (`.locked`).
    case lockCurrent
    /// Adjust once until settled, then hold (`.autoExpose`).
    case autoOnce
    /// Keep adjusting (`.continuousAutoExposure`, the default).
    case continuous
    /// Fixed exposure time (seconds) and ISO; nil keeps the current value (`.custom`).
    case custom(duration: Double?, iso: Float?)
}

/// The exposure mode a frame was captured in, as published in its metadata.
package enum ExposureState: Int, Sendable, Equatable {
    case locked = 0
    case autoOnce = 1
    case continuous = 2
    case custom = 3
}

/// White-balance commands, with `AVCaptureDevice.WhiteBalanceMode`'s meaning.
package enum WhiteBalanceControl: Sendable, Equatable {
    /// Hold the gains in use now (`.locked` with the current gains).
    case lockCurrent
    /// Hold these device gains (red, green, blue; each in 1 ... maxWhiteBalanceGain).
    case lock(red: Float, green: Float, blue: Float)
    /// Adjust once until settled, then hold (`.autoWhiteBalance`).
    case autoOnce
    /// Keep adjusting (`.continuousAutoWhiteBalance`, the default).
    case continuous
}

/// The white-balance state a frame was captured with, as published in its metadata.
package enum WhiteBalanceState: Int, Sendable, Equatable {
    case locked = 0
    case autoOnce = 1
    case continuous = 2
}

/// How a device's native RGB relates to CIE XYZ, after the DNG model: two colour matrices
/// (XYZ → camera native, row-major) measured under two calibration illuminants, blended by
/// inverse colour temperature. The API layer converts gains, chromaticities and
/// temperature/tint with it.
package struct ColorCalibration: Sendable, Equatable {
    package var colorMatrix1: [Double]
    /// Correlated colour temperature of illuminant 1 in kelvin (e.g. 2856 for A).
    package var temperature1: Double
    package var colorMatrix2: [Double]
    /// Correlated colour temperature of illuminant 2 in kelvin (e.g. 6504 for D65).
    package var temperature2: Double
    /// The largest device white-balance gain (`AVCaptureDevice.maxWhiteBalanceGain`).
    package var maxWhiteBalanceGain: Float

    package init(colorMatrix1: [Double], temperature1: Double, colorMatrix2: [Double], temperature2: Double, maxWhiteBalanceGain: Float) {
        self.colorMatrix1 = colorMatrix1
        self.temperature1 = temperature1
        self.colorMatrix2 = colorMatrix2
        self.temperature2 = temperature2
        self.maxWhiteBalanceGain = maxWhiteBalanceGain
    }
}
