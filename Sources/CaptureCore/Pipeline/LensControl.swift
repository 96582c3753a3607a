/// Focus commands, with `AVCaptureDevice.FocusMode`'s meaning.
package enum FocusControl: Sendable, Equatable {
    /// Hold the lens where it is (`.locked`), or move it to `lensPosition` (0 nearest ...
    /// 1 farthest) and hold it there (`setFocusModeLocked(lensPosition:)`).
    case lock(lensPosition: Float?)
    /// Search once for the sharpest position, then hold it (`.autoFocus`).
    case autoOnce(FocusSearch)
    /// Search, hold, and search again when the scene changes (`.continuousAutoFocus`).
    case continuous(FocusSearch)
}

/// Where and how autofocus searches.
package struct FocusSearch: Sendable, Equatable {
    /// The focus point of interest in Apple's coordinates ((0,0) top-left, (1,1)
    /// bottom-right of the unrotated sensor image).
    package var point: PointOfInterest
    /// Raw value of `AVCaptureDevice.AutoFocusRangeRestriction`: 0 none, 1 near, 2 far.
    package var rangeRestriction: Int
    /// Smaller, gentler lens steps (`isSmoothAutoFocusEnabled`).
    package var smooth: Bool

    package init(point: PointOfInterest = PointOfInterest(x: 0.5, y: 0.5), rangeRestriction: Int = 0, smooth: Bool = false) {
        self.point = point
        self.rangeRestriction = rangeRestriction
        self.smooth = smooth
    }
}

/// The focus mode a frame was captured in, as published in its metadata.
package enum FocusState: Int, Sendable, Equatable {
    case locked = 0
    case autoOnce = 1
    case continuous = 2
}

/// Zoom commands (`videoZoomFactor`, `ramp(toVideoZoomFactor:withRate:)`, `cancelVideoZoomRamp()`).
package enum ZoomControl: Sendable, Equatable {
    /// Jump to `factor`; cancels a ramp.
    case set(factor: Double)
    /// Move toward `target` by a factor of 2^rate per second of frame time (rate > 0).
    case ramp(target: Double, rate: Double)
    /// Stop a ramp where it is.
    case cancelRamp
}

/// Torch commands, with `AVCaptureDevice.TorchMode`'s meaning.
package enum TorchControl: Sendable, Equatable {
    case off
    /// On at `level` (0 < level <= 1).
    case on(level: Float)
    /// On by itself in dim scenes.
    case auto
}

/// What a device's lens can do about focus.
package struct FocusCapabilities: Sendable, Equatable {
    /// Whether the lens moves (false: fixed focus, only `.locked`).
    package var hasAutoFocus = false
    /// The nearest distance it can render sharply, metres (for fixed focus, the near limit
    /// of its depth of field); 0 when unknown.
    package var minimumFocusDistance = 0.0

    package init(hasAutoFocus: Bool = false, minimumFocusDistance: Double = 0) {
        self.hasAutoFocus = hasAutoFocus
        self.minimumFocusDistance = minimumFocusDistance
    }
}

/// How much torch the heat allows: full at nominal and fair pressure, half at serious,
/// none from critical on (the torch is then unavailable, as on iPhones).
package enum TorchAvailability {
    package static func maximumLevel(pressureLevel: Int) -> Float {
        switch pressureLevel {
        case ..<2: 1
        case 2: 0.5
        default: 0
        }
    }
}

extension ControlRequest {
    /// A request carrying only focus, zoom or torch commands.
    package static func lens(
        id: UInt64, focus: FocusControl? = nil, zoom: ZoomControl? = nil, torch: TorchControl? = nil
    ) -> ControlRequest {
        var request = ControlRequest(id: id)
        request.focus = focus
        request.zoom = zoom
        request.torch = torch
        return request
    }
}
