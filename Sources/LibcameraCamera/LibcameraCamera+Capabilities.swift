import CLibcameraRuntime
import CaptureCore

// What a libcamera camera can do beyond `CaptureBackend`, reached by the API layer through
// CaptureCore's capability protocols.

extension LibcameraCamera: StillCapturing {
    package var hasFlash: Bool { false }

    /// A frame of the running stream (`LibcameraStillTaker`), or for a still larger than the
    /// stream the first frame of a still-role configuration the camera switches to and back
    /// (`takeLargerStill`); with a raw request, then the mosaic of one frame of the raw
    /// configuration (`addRawMosaic`). Fails at once when not streaming. A bracket's
    /// exposure fails: it would need a request of its own.
    package func captureStill(_ request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void) {
        guard isConnected else { return completion(.failure(.deviceWasDisconnected)) }
        guard request.exposure == nil else {
            return completion(.failure(.streamFailed("\(descriptor.localizedName) takes no bracketed exposures yet")))
        }
        guard request.raw else { return captureProcessedStill(request, completion: completion) }
        guard let format = rawFormat(for: request.rawPixelFormat) else {
            return completion(.failure(.streamFailed("\(descriptor.localizedName) streams no raw format \(request.rawPixelFormat)")))
        }
        var processed = request
        processed.raw = false
        captureProcessedStill(processed) { [self] result in
            guard case .success(let still) = result else { return completion(result) }
            switchQueue.async { completion(self.addRawMosaic(format, to: still)) }
        }
    }

    private func captureProcessedStill(_ request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void) {
        let larger = state.withLock { $0?.configuration }.map { largerStillFormat(for: request, streaming: $0) != nil } ?? false
        if larger { return switchQueue.async { self.takeLargerStill(request, completion: completion) } }
        if !stills.add(request, completion: completion) { completion(.failure(.streamFailed("not streaming"))) }
    }

    /// There is no recent-frame history: zero-shutter-lag stills take the next frame.
    package func keepRecentFrames(_ keep: Bool, for owner: ObjectIdentifier) {}

    package var recentFrameBytes: Int { 0 }
}

/// libcamera's image controls without an AVFoundation name, as `linuxControls`: Brightness,
/// Contrast and Saturation, floats in libcamera, here in thousandths (Brightness −1 ... 1 is
/// −1000 ... 1000). They travel with the next request, like every libcamera control; the
/// value read back is the one last set (libcamera reports these in no metadata).
extension LibcameraCamera: DriverControlling {
    private static let ids: [(id: UInt32, name: String, bit: Int)] = [
        (1, "Brightness", OC_LC_HAS_BRIGHTNESS), (2, "Contrast", OC_LC_HAS_CONTRAST), (3, "Saturation", OC_LC_HAS_SATURATION),
    ]

    private func range(_ id: UInt32) -> (Float, Float, Float)? {
        switch id {
        case 1: limits.brightness
        case 2: limits.contrast
        case 3: limits.saturation
        default: nil
        }
    }

    package var driverControls: [DriverControl] {
        Self.ids.compactMap { entry in
            guard let (low, high, initial) = range(entry.id) else { return nil }
            return DriverControl(
                id: entry.id, name: entry.name, minimum: Int64((low * 1000).rounded()), maximum: Int64((high * 1000).rounded()), step: 1,
                defaultValue: Int64((initial * 1000).rounded()), isReadOnly: false, isButton: false, menu: [])
        }
    }

    package func value(of control: DriverControl) throws(DriverControlFailure) -> Int64 {
        guard let (_, _, initial) = range(control.id) else { throw DriverControlFailure("no control with ID \(control.id)") }
        return driverValues.withLock { $0[control.id] } ?? Int64((initial * 1000).rounded())
    }

    package func setValue(_ value: Int64, of control: DriverControl) throws(DriverControlFailure) -> Int64 {
        guard let (low, high, _) = range(control.id), let entry = Self.ids.first(where: { $0.id == control.id }) else {
            throw DriverControlFailure("no control with ID \(control.id)")
        }
        let kept = min(max(Float(value) / 1000, low), high)
        var controls = OCLcControls()
        controls.set = UInt32(entry.bit)
        switch control.id {
        case 1: controls.brightness = kept
        case 2: controls.contrast = kept
        default: controls.saturation = kept
        }
        queueDriverControls(controls)
        let stored = Int64((kept * 1000).rounded())
        driverValues.withLock { $0[control.id] = stored }
        return stored
    }
}
