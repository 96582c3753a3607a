import Testing

extension Tag {
    /// A test that asserts real time is kept (every frame on its grid while the machine is
    /// busy). ThreadSanitizer builds skip these (`make test-tsan`, through
    /// `scripts/tagged-tests realTime`): TSan slows every thread several times, so no frame
    /// could be on time.
    @Tag package static var realTime: Self

    /// One of the host suite's slowest suites (several seconds to over a minute on the
    /// project's two-core machine, mostly waiting: on child processes, encoders, real-time
    /// capture). `scripts/run-host-tests` runs the slow suites in a lane of their own beside
    /// the rest; together they take about half the host suite's time, so the two lanes end
    /// together. Tag or untag a suite when the lanes' times drift apart (the script prints
    /// both; each lane's log has every suite's time).
    @Tag package static var slow: Self
}
