import CaptureCore
import Foundation

/// The zoom factor over time: set directly, or ramped toward a target by a factor of
/// 2^rate per second of frame time (`ramp(toVideoZoomFactor:withRate:)`).
///
/// A ramp starts at the first frame that carries its request, at the factor in force then,
/// and frame k after it has factor start·2^(±rate·(t_k − t_0)) on the frames' presentation
/// times, until it reaches the target.
struct ZoomRamp: Sendable {
    private(set) var factor: Double = 1
    private(set) var target: Double = 1
    /// Doublings per second; 0 when not ramping.
    private(set) var rate: Double = 0
    private var startFactor: Double = 1
    /// Presentation time of the ramp's first frame, host-clock ns; nil until that frame.
    private var startTime: Int64?

    var isRamping: Bool { rate > 0 }

    mutating func apply(_ control: ZoomControl, maximum: Double) {
        switch control {
        case .set(let value):
            factor = min(max(value, 1), maximum)
            rate = 0
        case .ramp(let goal, let speed):
            target = min(max(goal, 1), maximum)
            rate = abs(speed)
            startTime = nil
            if rate == 0 || target == factor { rate = 0 }
        case .cancelRamp:
            rate = 0
        }
    }

    /// The factor of the frame presented at `time` (host-clock ns), within `maximum`.
    mutating func advance(to time: Int64, maximum: Double) -> Double {
        guard isRamping else {
            factor = min(factor, maximum)
            return factor
        }
        guard let start = startTime else {
            startTime = time
            startFactor = factor
            return factor
        }
        let seconds = Double(time - start) / Double(HostClock.timescale)
        let direction: Double = target >= startFactor ? 1 : -1
        let value = startFactor * exp2(direction * rate * seconds)
        if (direction > 0 && value >= target) || (direction < 0 && value <= target) {
            factor = target
            rate = 0
        } else {
            factor = value
        }
        factor = min(max(factor, 1), maximum)
        return factor
    }
}
