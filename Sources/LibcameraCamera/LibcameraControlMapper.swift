import CLibcameraRuntime
import CaptureCore
import Synchronization
import V4L2Camera

/// Turns `ControlRequest`s into libcamera controls for the next request, and a completed
/// request's metadata into `FrameMetadata`, deciding which control request a frame shows.
///
/// Mapped where the camera's `controls()` has them (`LibcameraLimits`):
/// - exposure: continuous/autoOnce → AeEnable on (autoOnce locks after
///   `V4L2ControlApplier.settleFrames` frames); locked → AeEnable off (the algorithms hold
///   their last values); custom → AeEnable off, ExposureTime (µs) and AnalogueGain, with
///   ISO = 100 × AnalogueGain (unity analogue gain is ISO 100, as iPhone sensors' base ISO
///   is near it); bias → ExposureValue (EV);
/// - white balance: continuous/autoOnce → AwbEnable on; locked → AwbEnable off; locked
///   gains → AwbEnable off and ColourGains (red / green, blue / green);
/// - focus: continuous → AfMode continuous, autoOnce → AfMode auto, lock(position) →
///   AfMode manual and LensPosition (libcamera's dioptres over the camera's range: Apple's
///   0 nearest ... 1 farthest is max ... min dioptres);
/// - zoom → ScalerCrop, the largest crop shrunk by the factor about its centre;
/// - frame durations (the stream configuration's) → FrameDurationLimits.
///
/// A request's completion time is the sensor timestamp of the first frame that both came
/// from a libcamera request carrying it and whose metadata shows its values (exposure time
/// and gain within 5 %, colour gains within 5 %, lens position within 0.05 dioptre); values
/// the pipeline does not report count as shown once carried, and a value the sensor never
/// reaches (it clamps) counts as shown 8 frames after it was carried.
///
/// Values a frame's metadata lacks (vimc reports only the sensor timestamp) are the ones
/// last asked for, else, as the V4L2 backend answers for a device without the control: the
/// exposure is the frame's duration (the longest a frame of the stream can expose), ISO 100
/// (unity analogue gain, what the formats list when there is no gain control), the lens
/// position 1 (a fixed-focus lens at its far end) and the white-balance gains 1.
final class LibcameraControlMapper: Sendable {
    let limits: LibcameraLimits
    private let state = Mutex(State())

    private struct Expectation {
        var id: UInt64
        var exposureTime: Int32?
        var analogueGain: Float?
        var colourGains: (Float, Float)?
        var lensPosition: Float?
        /// Frames seen since the request was carried.
        var framesCarried = 0
    }

    private struct State {
        var waiting: [Expectation] = []
        var shown: UInt64 = 0
        var exposureState = ExposureState.continuous
        var exposureOnceFrames = 0
        var whiteBalanceState = WhiteBalanceState.continuous
        var whiteBalanceOnceFrames = 0
        var focusState = FocusState.continuous
        var bias: Float = 0
        var zoomFactor = 1.0
        var lastGains: (red: Float, green: Float, blue: Float) = (1, 1, 1)
        /// Custom exposure and lens values asked for, for frames whose metadata lacks them.
        var askedExposure: Double?
        var askedISO: Float?
        var askedLens: Float?
    }

    init(limits: LibcameraLimits) {
        self.limits = limits
    }

    /// The libcamera controls for `request`; records what its frames must show.
    func controls(for request: ControlRequest) -> OCLcControls {
        var controls = OCLcControls()
        var expectation = Expectation(id: request.id)
        let has = limits.has
        switch request.exposure {
        case .continuous?, .autoOnce?:
            controls.set(OC_LC_HAS_AE_ENABLE, has) { $0.aeEnable = 1 }
            state.withLock {
                $0.exposureState = request.exposure == .continuous ? .continuous : .autoOnce
                $0.exposureOnceFrames = request.exposure == .continuous ? 0 : V4L2ControlApplier.settleFrames
                ($0.askedExposure, $0.askedISO) = (nil, nil)
            }
        case .lockCurrent?:
            controls.set(OC_LC_HAS_AE_ENABLE, has) { $0.aeEnable = 0 }
            state.withLock { $0.exposureState = .locked }
        case .custom(let duration, let iso)?:
            controls.set(OC_LC_HAS_AE_ENABLE, has) { $0.aeEnable = 0 }
            if let duration, has & UInt32(OC_LC_HAS_EXPOSURE_TIME) != 0 {
                let micros = Int32(min(max((duration * 1_000_000).rounded(), Double(limits.minExposureTime)), Double(limits.maxExposureTime)))
                controls.set(OC_LC_HAS_EXPOSURE_TIME, has) { $0.exposureTime = micros }
                expectation.exposureTime = micros
                state.withLock { $0.askedExposure = Double(micros) / 1_000_000 }
            }
            if let iso, has & UInt32(OC_LC_HAS_ANALOGUE_GAIN) != 0 {
                let gain = min(max(iso / 100, limits.minAnalogueGain), limits.maxAnalogueGain)
                controls.set(OC_LC_HAS_ANALOGUE_GAIN, has) { $0.analogueGain = gain }
                expectation.analogueGain = gain
                state.withLock { $0.askedISO = gain * 100 }
            }
            state.withLock { $0.exposureState = .custom }
        case nil: break
        }
        if let bias = request.exposureTargetBias {
            controls.set(OC_LC_HAS_EXPOSURE_VALUE, has) { $0.exposureValue = bias }
            state.withLock { $0.bias = bias }
        }
        switch request.whiteBalance {
        case .continuous?, .autoOnce?:
            controls.set(OC_LC_HAS_AWB_ENABLE, has) { $0.awbEnable = 1 }
            state.withLock {
                $0.whiteBalanceState = request.whiteBalance == .continuous ? .continuous : .autoOnce
                $0.whiteBalanceOnceFrames = request.whiteBalance == .continuous ? 0 : V4L2ControlApplier.settleFrames
            }
        case .lockCurrent?:
            controls.set(OC_LC_HAS_AWB_ENABLE, has) { $0.awbEnable = 0 }
            state.withLock { $0.whiteBalanceState = .locked }
        case .lock(let red, let green, let blue)?:
            controls.set(OC_LC_HAS_AWB_ENABLE, has) { $0.awbEnable = 0 }
            let gains = (red / green, blue / green)
            controls.set(OC_LC_HAS_COLOUR_GAINS, has) { $0.colourGains = gains }
            if has & UInt32(OC_LC_HAS_COLOUR_GAINS) != 0 { expectation.colourGains = gains }
            state.withLock {
                $0.whiteBalanceState = .locked
                $0.lastGains = (red, green, blue)
            }
        case nil: break
        }
        switch request.focus {
        case .continuous?:
            controls.set(OC_LC_HAS_AF_MODE, has) { $0.afMode = 2 }
            state.withLock { $0.focusState = .continuous }
        case .autoOnce?:
            controls.set(OC_LC_HAS_AF_MODE, has) { $0.afMode = 1 }
            state.withLock { $0.focusState = .autoOnce }
        case .lock(let position)?:
            controls.set(OC_LC_HAS_AF_MODE, has) { $0.afMode = 0 }
            if let position, has & UInt32(OC_LC_HAS_LENS_POSITION) != 0 {
                let dioptres = limits.dioptres(lensPosition: position)
                controls.set(OC_LC_HAS_LENS_POSITION, has) { $0.lensPosition = dioptres }
                expectation.lensPosition = dioptres
                state.withLock { $0.askedLens = limits.lensPosition(dioptres: dioptres) }
            }
            state.withLock { $0.focusState = .locked }
        case nil: break
        }
        if case .set(let factor)? = request.zoom, let crop = limits.scalerCrop(zoomFactor: factor) {
            controls.set(OC_LC_HAS_SCALER_CROP, has) { $0.scalerCrop = crop }
            state.withLock { $0.zoomFactor = factor }
        }
        state.withLock { $0.waiting.append(expectation) }
        return controls
    }

    /// Controls that end an "auto once" mode at this frame (AeEnable/AwbEnable off), if any.
    func settleOnceModes() -> OCLcControls? {
        var controls = OCLcControls()
        state.withLock { state in
            if state.exposureOnceFrames > 0 {
                state.exposureOnceFrames -= 1
                if state.exposureOnceFrames == 0 {
                    controls.set(OC_LC_HAS_AE_ENABLE, limits.has) { $0.aeEnable = 0 }
                    state.exposureState = .locked
                }
            }
            if state.whiteBalanceOnceFrames > 0 {
                state.whiteBalanceOnceFrames -= 1
                if state.whiteBalanceOnceFrames == 0 {
                    controls.set(OC_LC_HAS_AWB_ENABLE, limits.has) { $0.awbEnable = 0 }
                    state.whiteBalanceState = .locked
                }
            }
        }
        return controls.set == 0 ? nil : controls
    }

    /// Fills `metadata` from a completed request: its values, and the newest control
    /// request whose values the frame shows.
    func describe(_ frame: OCLcFrame, into metadata: inout FrameMetadata) {
        let reported = frame.metadata
        func has(_ bit: UInt32) -> Bool { reported & bit != 0 }
        if has(UInt32(OC_LC_MD_EXPOSURE_TIME)) { metadata.exposureDuration = Double(frame.exposureTime) / 1_000_000 }
        if has(UInt32(OC_LC_MD_ANALOGUE_GAIN)) {
            metadata.iso = frame.analogueGain * 100
            metadata.analogGain = frame.analogueGain
        }
        if has(UInt32(OC_LC_MD_LENS_POSITION)) { metadata.lensPosition = limits.lensPosition(dioptres: frame.lensPosition) }
        if has(UInt32(OC_LC_MD_COLOUR_TEMPERATURE)) { metadata.sceneTemperature = Double(frame.colourTemperature) }
        if has(UInt32(OC_LC_MD_FRAME_DURATION)) {
            metadata.frameDuration = CMTime(value: frame.frameDuration, timescale: 1_000_000)
        }
        state.withLock { state in
            if !has(UInt32(OC_LC_MD_EXPOSURE_TIME)) {
                let frame = metadata.frameDuration.isValid && metadata.frameDuration.value > 0 ? metadata.frameDuration.seconds : 0
                metadata.exposureDuration = state.askedExposure ?? frame
            }
            if !has(UInt32(OC_LC_MD_ANALOGUE_GAIN)) {
                metadata.iso = state.askedISO ?? 100
                metadata.analogGain = metadata.iso / 100
            }
            if !has(UInt32(OC_LC_MD_LENS_POSITION)) { metadata.lensPosition = state.askedLens ?? 1 }
            if has(UInt32(OC_LC_MD_COLOUR_GAINS)) {
                // Apple's device gains are at least 1 with green the reference.
                state.lastGains = (max(frame.colourGains.0, 1), 1, max(frame.colourGains.1, 1))
            }
            metadata.whiteBalanceGains = state.lastGains
            metadata.exposureState = state.exposureState
            metadata.whiteBalanceState = state.whiteBalanceState
            metadata.exposureTargetBias = state.bias
            metadata.focusState = state.focusState
            metadata.zoomFactor = state.zoomFactor
            while let first = state.waiting.first, first.id <= frame.tag {
                guard Self.shows(first, frame) || first.framesCarried >= 8 else {
                    state.waiting[0].framesCarried += 1
                    break
                }
                state.shown = first.id
                state.waiting.removeFirst()
            }
            metadata.appliedRequest = state.shown
        }
    }

    private static func shows(_ expected: Expectation, _ frame: OCLcFrame) -> Bool {
        func near(_ a: Float, _ b: Float, _ tolerance: Float) -> Bool { abs(a - b) <= tolerance * max(abs(b), 1e-6) }
        let reported = frame.metadata
        if let time = expected.exposureTime, reported & UInt32(OC_LC_MD_EXPOSURE_TIME) != 0,
            !near(Float(frame.exposureTime), Float(time), 0.05)
        { return false }
        if let gain = expected.analogueGain, reported & UInt32(OC_LC_MD_ANALOGUE_GAIN) != 0, !near(frame.analogueGain, gain, 0.05) {
            return false
        }
        if let gains = expected.colourGains, reported & UInt32(OC_LC_MD_COLOUR_GAINS) != 0,
            !near(frame.colourGains.0, gains.0, 0.05) || !near(frame.colourGains.1, gains.1, 0.05)
        { return false }
        if let lens = expected.lensPosition, reported & UInt32(OC_LC_MD_LENS_POSITION) != 0, abs(frame.lensPosition - lens) > 0.05 {
            return false
        }
        return true
    }
}

extension OCLcControls {
    /// Sets one control when the camera has it (`has`, `OC_LC_HAS_*` bits).
    mutating func set(_ bit: Int, _ has: UInt32, _ body: (inout OCLcControls) -> Void) {
        guard has & UInt32(bit) != 0 else { return }
        body(&self)
        self.set |= UInt32(bit)
    }
}
