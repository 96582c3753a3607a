import Glibc
import Synchronization

/// Lets FFmpeg's blocking network calls (connecting, an SRT listener waiting for its caller,
/// a write to a receiver that stopped reading) give up: libavformat polls it through the
/// format context's interrupt callback, from the thread making the call.
///
/// `cancel()` ends the current and every later call (any thread); `arm(seconds:)` gives the
/// next calls a deadline on CLOCK_MONOTONIC.
package final class StreamInterrupt: Sendable {
    private let cancelled = Atomic<Bool>(false)
    /// Nanoseconds on CLOCK_MONOTONIC; `Int64.max` for none.
    private let deadline = Atomic<Int64>(Int64.max)

    package init() {}

    /// Interrupts what is blocked now and everything after.
    package func cancel() { cancelled.store(true, ordering: .releasing) }

    package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Calls from now on fail once `seconds` have passed.
    package func arm(seconds: Double) {
        deadline.store(Self.now() + Int64(seconds * 1e9), ordering: .releasing)
    }

    /// Whether the call in progress should stop.
    var shouldInterrupt: Bool {
        isCancelled || Self.now() > deadline.load(ordering: .acquiring)
    }

    /// Whether the deadline has passed (not cancelled): the reason a call failed was time.
    package var timedOut: Bool { Self.now() > deadline.load(ordering: .acquiring) }

    private static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

/// The C callback libavformat calls; `opaque` is an unretained `StreamInterrupt` that the
/// writer owning the format context keeps alive.
func streamInterruptCallback(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
    guard let opaque else { return 0 }
    return Unmanaged<StreamInterrupt>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt ? 1 : 0
}
