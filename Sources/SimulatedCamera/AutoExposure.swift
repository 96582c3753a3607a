import Foundation

/// Continuous auto exposure: meters each frame's statistics and steers exposure time,
/// ISO and (in low light) frame duration toward a mid-grey mean.
///
/// The loop works on total exposure X = t·ISO. Each frame it meters the centre-weighted
/// mean linear light m (relative to white, `FrameStatistics.meanLinear`) and computes the
/// offset log₂(m / `target`) in EV; then it moves log₂ X by −`speed`·offset, at most
/// `maxStep` EV, ignoring offsets inside `deadband` so noise does not make it hunt. The
/// sensor responds on the next frame and the metered light is monotonic in X, so a gain
/// below 1 converges without overshoot; clipping only makes the measured error smaller,
/// which slows the loop rather than destabilising it. X is clamped to what the limits can
/// deliver, so it never winds up past them.
///
/// X is divided up as phones do (and libcamera's exposure-mode helper without tuning):
/// exposure time first, up to the shorter of the format's maximum and the minimum frame
/// duration; then ISO up to the maximum; then, in low light, longer frames up to the
/// configuration's maximum frame duration with exposure time to match.
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

        package init(
            minExposure: Double, maxExposure: Double, minISO: Float, maxISO: Float, minFrameDuration: Double,
            maxFrameDuration: Double
        ) {
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
    /// Fraction of the error corrected per frame once started.
    package var speed = 0.25
    /// Fraction corrected per frame during the first `startupFrames` frames.
    package var startupSpeed = 0.8
    package var startupFrames = 10
    /// Largest change per frame, EV.
    package var maxStep = 2.0
    /// Errors smaller than this, EV, are left alone.
    package var deadband = 0.04

    /// The exposure for the next frame.
    package private(set) var exposureDuration: Double
    package private(set) var iso: Float
    package private(set) var frameDuration: Double
    /// The last metered offset, EV (metered − target).
    package private(set) var targetOffset: Float = 0
    package private(set) var framesMetered = 0
    package private(set) var limits: Limits

    /// Starts at a middling indoor exposure: 1/60 s (or the frame duration) at twice the
    /// minimum ISO.
    package init(limits: Limits) {
        self.limits = limits
        exposureDuration = 0
        iso = limits.minISO
        frameDuration = limits.minFrameDuration
        divide(totalExposure: min(1.0 / 60, limits.minFrameDuration) * Double(limits.minISO) * 2)
    }

    /// Total exposure t·ISO.
    package var totalExposure: Double { exposureDuration * Double(iso) }

    /// New limits (format or frame-rate change); the exposure is re-divided within them.
    package mutating func setLimits(_ new: Limits) {
        guard new != limits else { return }
        let total = totalExposure
        limits = new
        divide(totalExposure: total)
    }

    /// Meters one frame taken at the current exposure and sets the next.
    package mutating func update(meanLinear: Double) {
        let metered = max(meanLinear, 1e-5)
        let offset = log2(metered / target)
        targetOffset = Float(offset)
        let rate = framesMetered < startupFrames ? startupSpeed : speed
        framesMetered += 1
        guard abs(offset) > deadband else { return }
        let step = min(max(-offset * rate, -maxStep), maxStep)
        divide(totalExposure: totalExposure * exp2(step))
    }

    /// Sets the total exposure outright, clamped and divided as the loop would: for a still's
    /// pre-flash metering, which measures a steady light instead of following a stream.
    package mutating func setTotalExposure(_ total: Double) {
        divide(totalExposure: total)
    }

    /// Splits a total exposure into time, ISO and frame duration (see the type's notes).
    private mutating func divide(totalExposure requested: Double) {
        let l = limits
        let normalTime = max(min(l.maxExposure, l.minFrameDuration), l.minExposure)
        let longTime = max(min(l.maxExposure, l.maxFrameDuration), normalTime)
        let minISO = Double(l.minISO), maxISO = Double(l.maxISO)
        let total = min(max(requested, l.minExposure * minISO), longTime * maxISO)
        if total <= normalTime * minISO {
            exposureDuration = total / minISO
            iso = l.minISO
            frameDuration = l.minFrameDuration
        } else if total <= normalTime * maxISO {
            exposureDuration = normalTime
            iso = Float(min(max(total / normalTime, minISO), maxISO))
            frameDuration = l.minFrameDuration
        } else {
            exposureDuration = min(total / maxISO, longTime)
            iso = l.maxISO
            frameDuration = max(exposureDuration, l.minFrameDuration)
        }
    }
}
