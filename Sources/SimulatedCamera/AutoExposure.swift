import Foundation

/// Continuous auto exposure: meters each frame's statistics and steers exposure time,
/// ISO and (in low light) frame duration toward a mid-grey mean.
///
/// The loop works on total exposure X = t·ISO. Each frame it meters the centre-weighted
/// mean linear light m (relative to white, `FrameStatistics.meanLinear`) and computes the
/// offset log₂(m / `target`) in EV; then it moves log₂ X by −rate·offset, at most
/// `maxStep` EV, ignoring offsets inside `deadband` so noise does not make it hunt. The
/// rate rises from `speed` for small errors to `fastSpeed` for errors of 1 EV and more:
/// small errors are mostly noise and flicker, to be followed smoothly, while a large one is
/// a real change to catch up with (a 4 EV step settles within 0.1 EV in ~10 frames). The
/// sensor responds on the next frame and the metered light is monotonic in X, so a gain
/// below 1 converges without overshoot; clipping only makes the measured error smaller,
/// which slows the loop rather than destabilising it. X is clamped to what the limits can
/// deliver, so it never winds up past them.
///
/// X is divided up as phones do (and libcamera's exposure-mode helper without tuning):
/// exposure time first, up to the shorter of the format's maximum and the minimum frame
/// duration; then ISO up to the maximum; then, in low light, longer frames up to the
/// configuration's maximum frame duration with exposure time to match. An active maximum
/// exposure (`activeMaxExposureDuration`) caps the time, so more of X goes to ISO.
///
/// Modes (`ExposureState`, set by `apply`, see AutoExposure+Modes.swift): continuous runs
/// the loop every frame; auto once runs it until it has settled for `settleFrames` frames,
/// then locks; locked and custom hold a fixed time and ISO, and custom may lengthen the
/// frame to fit its exposure. Every mode meters, so `targetOffset` is always published.
///
/// Low-light boost (on cameras whose limits have a `boostFrameDuration`, when the memory
/// allows it): in continuous or auto-once mode, once the scene is so dim that the normal
/// split would need `boostOnISO` or more at its longest normal exposure, the boost turns on
/// and exposure time may run up to the boost frame duration (1/15 s, within the format's
/// maximum and any active cap) before ISO rises: fewer frames per second, less gain, more
/// light per frame, so a better signal-to-noise ratio. It turns off once that normal-split
/// ISO falls below a quarter of `boostOnISO` (hysteresis, so it does not flicker). Each
/// switch re-divides the same total exposure, so the image brightness does not jump.
package struct AutoExposure: Sendable, Equatable {
    /// What the loop may set.
    package struct Limits: Sendable, Equatable {
        package var minExposure: Double
        package var maxExposure: Double
        package var minISO: Float
        package var maxISO: Float
        /// Seconds; the frame duration in normal light.
        package var minFrameDuration: Double
        /// Seconds; the longest frame in low light.
        package var maxFrameDuration: Double
        /// Seconds; the longest frame low-light boost may use, 0 if the camera has no boost.
        package var boostFrameDuration: Double

        package init(
            minExposure: Double, maxExposure: Double, minISO: Float, maxISO: Float, minFrameDuration: Double,
            maxFrameDuration: Double, boostFrameDuration: Double = 0
        ) {
            self.boostFrameDuration = max(boostFrameDuration, 0)
            self.minExposure = minExposure
            self.maxExposure = maxExposure
            self.minISO = minISO
            self.maxISO = maxISO
            self.minFrameDuration = minFrameDuration
            self.maxFrameDuration = max(maxFrameDuration, minFrameDuration)
        }
    }

    /// Target mean linear light: 18 % grey (sRGB code 118 for a uniform grey frame).
    package var target = 0.18
    /// Fraction of a small error corrected per frame once started.
    package var speed = 0.25
    /// Fraction of an error of 1 EV or more corrected per frame once started.
    package var fastSpeed = 0.6
    /// Fraction corrected per frame during the first `startupFrames` frames.
    package var startupSpeed = 0.8
    package var startupFrames = 10
    /// Largest change per frame, EV.
    package var maxStep = 2.0
    /// Errors smaller than this, EV, are left alone.
    package var deadband = 0.04
    /// An error below this, EV, (or one the limits leave no room to correct) counts as settled.
    package var settleTolerance = 0.1
    /// Settled frames in a row after which auto exposure stops adjusting (auto once locks).
    package var settleFrames = 3

    /// The exposure for the next frame.
    package internal(set) var exposureDuration: Double
    package internal(set) var iso: Float
    package internal(set) var frameDuration: Double
    /// The last metered offset, EV (metered − target).
    package private(set) var targetOffset: Float = 0
    package private(set) var framesMetered = 0
    package private(set) var limits: Limits
    /// Mode, bias, caps and metering point (what survives a stop and start).
    package internal(set) var memory = Memory()
    /// Whether the loop is still moving the exposure.
    package internal(set) var isAdjusting = true
    /// Consecutive settled frames.
    var settledCount = 0
    /// Whether low-light boost is on: exposure may lengthen up to the boost frame duration.
    package internal(set) var isLowLightBoostEnabled = false
    /// The ISO the normal split would need at its longest exposure for the boost to turn on
    /// (at most half the maximum ISO); it turns off below a quarter of this. 400 is within a
    /// stop of the simulated sensors' last analog gain (16 × base ISO 34 or 40), past which
    /// more ISO is digital gain that only amplifies the noise.
    package var boostOnISO: Float = 400
    /// The longest frame low-light boost uses on the cameras that have it: 1/15 s.
    package static let boostFrameDuration = 1.0 / 15

    /// Starts at a middling indoor exposure: 1/60 s (or the frame duration) at twice the
    /// minimum ISO.
    /// `memory` restores a previous stream's mode; a held exposure resumes as it was.
    package init(limits: Limits, memory: Memory = Memory()) {
        self.limits = limits
        self.memory = memory
        exposureDuration = 0
        iso = limits.minISO
        frameDuration = limits.minFrameDuration
        divide(totalExposure: min(1.0 / 60, limits.minFrameDuration) * Double(limits.minISO) * 2)
        if memory.isManual, let duration = memory.heldDuration, let iso = memory.heldISO {
            hold(duration: duration, iso: iso)
        } else if memory.state == .locked {
            self.memory.state = .continuous  // nothing to hold: meter afresh
        }
        isAdjusting = !self.memory.isManual
    }

    /// The mean linear light the loop aims at: mid-grey raised by the bias.
    package var biasedTarget: Double { target * exp2(Double(memory.bias)) }

    /// Total exposure t·ISO.
    package var totalExposure: Double { exposureDuration * Double(iso) }

    /// New limits (format or frame-rate change); the exposure is re-divided within them.
    package mutating func setLimits(_ new: Limits) {
        guard new != limits else { return }
        let total = totalExposure
        limits = new
        if !isLowLightBoostAvailable { isLowLightBoostEnabled = false }
        if memory.isManual {
            hold(duration: exposureDuration, iso: iso)
        } else {
            divide(totalExposure: total)
        }
    }

    /// Meters one frame taken at the current exposure and sets the next.
    package mutating func update(meanLinear: Double) {
        let metered = max(meanLinear, 1e-5)
        let offset = log2(metered / biasedTarget)
        targetOffset = Float(offset)
        let rate =
            framesMetered < startupFrames ? startupSpeed : speed + (fastSpeed - speed) * min(abs(offset), 1)
        framesMetered += 1
        guard !memory.isManual else {
            isAdjusting = false
            return
        }
        let before = totalExposure
        if abs(offset) > deadband {
            let step = min(max(-offset * rate, -maxStep), maxStep)
            divide(totalExposure: totalExposure * exp2(step))
        }
        updateLowLightBoost()
        // Settled: on target, or pinned at a limit (then nothing more can be done).
        let moved = abs(log2(totalExposure / before)) > 1e-3
        settledCount = abs(offset) < settleTolerance || !moved ? settledCount + 1 : 0
        isAdjusting = settledCount < settleFrames
        if !isAdjusting && memory.state == .autoOnce { lock() }
    }

    /// Sets the total exposure outright, clamped and divided as the loop would: for a still's
    /// pre-flash metering, which measures a steady light instead of following a stream.
    package mutating func setTotalExposure(_ total: Double) {
        divide(totalExposure: total)
    }

    /// Whether the limits and memory let low-light boost turn on at all: the camera has it,
    /// it is allowed, and the boost frame is longer than the normal one.
    var isLowLightBoostAvailable: Bool {
        memory.lowLightBoostAllowed && limits.boostFrameDuration > limits.minFrameDuration * (1 + 1e-9)
    }

    /// The longest exposure time the normal (unboosted) split uses before raising ISO.
    private var normalExposureLimit: Double {
        let l = limits
        let cap = memory.activeMaxExposure > 0 ? memory.activeMaxExposure : .infinity
        return max(min(l.maxExposure, l.minFrameDuration, cap), l.minExposure)
    }

    /// Turns low-light boost on or off for the exposure just chosen (see the type's notes).
    mutating func updateLowLightBoost() {
        guard isLowLightBoostAvailable, !memory.isManual else {
            setLowLightBoost(false)
            return
        }
        let onISO = Double(min(boostOnISO, limits.maxISO / 2))
        let normalISO = totalExposure / normalExposureLimit
        if !isLowLightBoostEnabled && normalISO >= onISO {
            setLowLightBoost(true)
        } else if isLowLightBoostEnabled && normalISO < onISO / 4 {
            setLowLightBoost(false)
        }
    }

    /// Switches low-light boost, re-dividing the same total exposure if the loop steers it.
    mutating func setLowLightBoost(_ enabled: Bool) {
        guard enabled != isLowLightBoostEnabled else { return }
        isLowLightBoostEnabled = enabled
        if !memory.isManual { divide(totalExposure: totalExposure) }
    }

    /// Splits a total exposure into time, ISO and frame duration (see the type's notes).
    mutating func divide(totalExposure requested: Double) {
        let l = limits
        let cap = memory.activeMaxExposure > 0 ? memory.activeMaxExposure : .infinity
        var normalTime = normalExposureLimit
        if isLowLightBoostEnabled {
            // Boost: the exposure runs up to the boost frame before ISO rises.
            normalTime = max(min(l.maxExposure, max(l.boostFrameDuration, l.minFrameDuration), cap), normalTime)
        }
        let longTime = max(min(l.maxExposure, l.maxFrameDuration, cap), normalTime)
        let minISO = Double(l.minISO), maxISO = Double(l.maxISO)
        let total = min(max(requested, l.minExposure * minISO), longTime * maxISO)
        if total <= normalTime * minISO {
            exposureDuration = total / minISO
            iso = l.minISO
            frameDuration = max(exposureDuration, l.minFrameDuration)
        } else if total <= normalTime * maxISO {
            exposureDuration = normalTime
            iso = Float(min(max(total / normalTime, minISO), maxISO))
            frameDuration = max(exposureDuration, l.minFrameDuration)
        } else {
            exposureDuration = min(total / maxISO, longTime)
            iso = l.maxISO
            frameDuration = max(exposureDuration, l.minFrameDuration)
        }
    }
}
