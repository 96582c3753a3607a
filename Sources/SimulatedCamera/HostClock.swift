import CaptureCore
import Glibc

/// Host-clock and nanosecond `CMTime` helpers for the capture loop.
///
/// The host clock is CLOCK_MONOTONIC in nanoseconds, as `CMClockGetHostTimeClock()`
/// reports it; reading it here keeps the simulated camera independent of how the Core
/// Media layer builds its clock objects.
enum HostClock {
    /// Nanoseconds per second, the timescale of every timestamp the camera makes.
    static let timescale: Int64 = 1_000_000_000

    /// Now on CLOCK_MONOTONIC, in nanoseconds.
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) &* timescale &+ Int64(ts.tv_nsec)
    }

    /// A valid time of `nanoseconds` in the nanosecond timescale.
    static func time(nanoseconds: Int64) -> CMTime {
        CMTime(value: nanoseconds, timescale: CMTimeScale(timescale), flags: .valid, epoch: 0)
    }

    /// `count` × `duration` in nanoseconds, rounded half up; exact for any duration
    /// whose product fits (full-width arithmetic, so no intermediate overflow).
    static func nanoseconds(of duration: CMTime, times count: Int64 = 1) -> Int64 {
        guard duration.flags.contains(.valid), duration.timescale > 0 else { return 0 }
        let ticks = duration.value.multipliedReportingOverflow(by: count)
        let wide = ticks.partialValue.multipliedFullWidth(by: timescale)
        let scale = Int64(duration.timescale)
        // Add half the divisor first so the division rounds to nearest.
        let (low, carry) = wide.low.addingReportingOverflow(UInt64(scale / 2))
        let high = wide.high &+ (carry ? 1 : 0)
        return scale.dividingFullWidth((high, low)).quotient
    }

    /// A duration's length in seconds.
    static func seconds(_ duration: CMTime) -> Double {
        guard duration.flags.contains(.valid), duration.timescale > 0 else { return 0 }
        return Double(duration.value) / Double(duration.timescale)
    }
}
