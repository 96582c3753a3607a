import Glibc

/// The host clock (CLOCK_MONOTONIC in nanoseconds), which `CMClockGetHostTimeClock()` reports.
enum HostClock {
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
    }
}
