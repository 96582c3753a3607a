import Foundation

/// A time interval in seconds, as CoreFoundation declares it (Foundation on Linux lacks it).
public typealias CFTimeInterval = Double

/// The current absolute time in seconds (CABase.h): the host clock, `CLOCK_MONOTONIC`, as
/// `CMClockGetHostTimeClock()` reads it, so it compares directly with sample buffers'
/// presentation times in seconds, as on iOS.
public func CACurrentMediaTime() -> CFTimeInterval {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}
