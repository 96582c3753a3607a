import CaptureCore
import ColorScience

/// White balance: the gains the ISP applies, steered by auto white balance or held.
///
/// Each frame's zone statistics give an illuminant estimate (`IlluminantEstimator`). The loop
/// keeps the white it balances for as mired (10⁶/T) and tint, and moves both a fixed
/// fraction `speed` of the way to the estimate per frame: a first-order filter, so after a
/// step in the light the white approaches the new one along a straight line in (mired,
/// tint), without overshoot, the error shrinking by (1 − `speed`) per frame (0.7³⁰ ≈ 2e-5).
/// The estimate comes from sensor codes taken *before* white balance, so the loop is open:
/// the gains do not feed back into what it measures, and it cannot oscillate. Errors below
/// `deadband` are left alone, so sensor noise does not make the gains jitter. Mired is
/// used because equal steps in it are roughly equal steps in colour. The first estimate
/// of a stream is taken whole, as libcamera does during its startup frames.
///
/// Gains come from the white through the camera's DNG model, with the smallest channel 1,
/// capped at `maxWhiteBalanceGain` (light too warm to neutralise stays warm, as on a phone).
///
/// Modes, as `ControlRequest` sets them: continuous (default); auto once (adjust until
/// settled, then lock); locked at given gains (normalised by the API layer, clamped here to
/// 1 ... max); locked at the current gains.
struct AutoWhiteBalance: Sendable {
    /// What survives a stop and start: mode, gains, the white being tracked.
    struct Memory: Sendable, Equatable {
        var state = WhiteBalanceState.continuous
        /// The white the loop balances for (mired and tint); the gains' white when locked.
        var mired = 1e6 / 6500
        var tint = 0.0
        var gains: SIMD3<Double>?
        /// Whether the white came from an estimate yet (false: a default to start from).
        var hasEstimate = false
    }

    /// Fraction of the remaining error corrected per frame.
    var speed = 0.3
    /// Errors smaller than these, mired and tint units, are not corrected.
    var deadband = (mired: 0.5, tint: 0.5)

    private(set) var memory: Memory
    /// Whether the last update found the white off target (the gains are moving).
    private(set) var isAdjusting: Bool
    /// The last illuminant estimate.
    private(set) var estimate: TemperatureTint?
    let response: CameraResponse
    private var estimator: IlluminantEstimator

    init(response: CameraResponse, memory: Memory) {
        self.response = response
        self.memory = memory
        estimator = IlluminantEstimator(model: response.model)
        isAdjusting = memory.state != .locked
        if memory.gains == nil { self.memory.gains = gains(mired: memory.mired, tint: memory.tint) }
    }

    /// The gains for the next frame, red / green / blue.
    var gains: SIMD3<Double> { memory.gains ?? SIMD3(repeating: 1) }

    var state: WhiteBalanceState { memory.state }

    /// Applies a white-balance command (at a frame boundary).
    mutating func apply(_ control: WhiteBalanceControl) {
        switch control {
        case .continuous:
            memory.state = .continuous
            isAdjusting = true
        case .autoOnce:
            memory.state = .autoOnce
            isAdjusting = true
        case .lockCurrent:
            memory.state = .locked
            isAdjusting = false
        case .lock(let red, let green, let blue):
            let maxGain = response.maxGain
            let locked = SIMD3(Double(red), Double(green), Double(blue))
                .clamped(lowerBound: SIMD3(repeating: 1), upperBound: SIMD3(repeating: maxGain))
            memory.state = .locked
            memory.gains = locked
            // Track the locked white, so that going back to auto starts from it.
            let white = TemperatureTint(response.model.white(forGains: locked))
            memory.mired = 1e6 / white.temperature
            memory.tint = white.tint
            isAdjusting = false
        }
    }

    /// Takes a frame's statistics and sets the gains for the next frame.
    mutating func update(_ statistics: ZoneStatistics) {
        estimate = estimator.estimate(statistics)
        guard memory.state != .locked else { return }
        guard let estimate else { return }  // nothing to judge by: hold
        let target = (mired: 1e6 / estimate.temperature, tint: estimate.tint)
        let error = (mired: target.mired - memory.mired, tint: target.tint - memory.tint)
        if abs(error.mired) < deadband.mired && abs(error.tint) < deadband.tint && memory.hasEstimate {
            isAdjusting = false
            if memory.state == .autoOnce { memory.state = .locked }
            return
        }
        let rate = memory.hasEstimate ? speed : 1
        memory.hasEstimate = true
        memory.mired += rate * error.mired
        memory.tint += rate * error.tint
        memory.gains = gains(mired: memory.mired, tint: memory.tint)
        isAdjusting = true
    }

    /// Device gains for a white, smallest 1, capped at the maximum.
    private func gains(mired: Double, tint: Double) -> SIMD3<Double> {
        let white = TemperatureTint(temperature: 1e6 / mired, tint: tint).chromaticity
        let g = response.model.gains(forWhite: white)
        return g.clamped(lowerBound: SIMD3(repeating: 1), upperBound: SIMD3(repeating: response.maxGain))
    }
}
