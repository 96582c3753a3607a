import Glibc
import Synchronization

/// A clock: a source of monotonically increasing time.
///
/// The host clock reads `CLOCK_MONOTONIC` in nanoseconds (timescale 1 000 000 000). Device
/// clocks are simulated as the host time plus a fixed offset, so conversions between clocks
/// are exact rational arithmetic.
public final class CMClock: Sendable {
    /// The host time clock's timescale: nanoseconds.
    static let hostTimescale: CMTimeScale = 1_000_000_000

    /// A name for diagnostics.
    package let name: String
    private let offset: Mutex<CMTime>
    /// False once `CMClockInvalidate` was called: the clock then answers only errors.
    private let valid = Mutex(true)

    /// Creates a simulated device clock whose time is the host time plus `offsetFromHost`.
    ///
    /// Offsets whose timescale divides 1 000 000 000 keep every reading exact.
    package init(name: String, offsetFromHost: CMTime) {
        self.name = name
        self.offset = Mutex(offsetFromHost)
    }

    /// The offset added to host time to give this clock's time (zero for the host clock).
    package var offsetFromHost: CMTime {
        get { offset.withLock { $0 } }
        set { offset.withLock { $0 = newValue } }
    }

    /// The shared host time clock (`CMClockGetHostTimeClock()`).
    public static let hostTimeClock = CMClock(name: "host", offsetFromHost: .zero)

    /// The current time of this clock (`CMClockGetTime(_:)`); invalid once the clock was
    /// invalidated.
    public var time: CMTime {
        guard isValid else { return .invalid }
        return CMTimeAdd(CMClock.currentHostTime(), offsetFromHost)
    }

    /// Whether the clock still works (it has not been invalidated).
    package var isValid: Bool { valid.withLock { $0 } }

    /// Stops the clock working (`CMClockInvalidate`).
    package func markInvalid() { valid.withLock { $0 = false } }

    /// Reads `CLOCK_MONOTONIC` as a time in nanoseconds.
    static func currentHostTime() -> CMTime {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = CMTimeValue(now.tv_sec) * CMTimeValue(hostTimescale) + CMTimeValue(now.tv_nsec)
        return CMTime(value: nanoseconds, timescale: hostTimescale)
    }
}

/// A clock or a timebase (`CMClockOrTimebaseRef`, a `CFTypeRef`): a `CMClock` or a
/// `CMTimebase`. The CMSync functions answer errors or invalid times for any other object.
public typealias CMClockOrTimebase = AnyObject

/// The shared host time clock (`CLOCK_MONOTONIC`, nanoseconds).
public func CMClockGetHostTimeClock() -> CMClock { CMClock.hostTimeClock }

/// The current time of `clock`.
public func CMClockGetTime(_ clock: CMClock) -> CMTime { clock.time }

/// Converts `time` from one clock's or timebase's timeline to another's, through host time.
///
/// Between clocks the result is `time - from.offset + to.offset`, computed exactly (see
/// `CMTimeAdd`); a timebase maps through its anchor and rate down to its clock. Non-numeric
/// times, and conversions to the same object, return `time` unchanged; converting from a
/// stopped timebase (whose time is reached at no single host time), or to or from an object
/// that is neither a clock nor a timebase, gives an invalid time.
public func CMSyncConvertTime(_ time: CMTime, from fromClockOrTimebase: CMClockOrTimebase, to toClockOrTimebase: CMClockOrTimebase) -> CMTime {
    guard time.kind == .numeric, fromClockOrTimebase !== toClockOrTimebase else { return time }
    let hostTime = _syncHostTime(of: fromClockOrTimebase, forTime: time)
    guard hostTime.isNumeric else { return .invalid }
    return _syncTime(of: toClockOrTimebase, atHostTime: hostTime)
}

/// Converts a host time to system units (nanoseconds on Linux), rounding half away from
/// zero. Non-numeric and negative times give 0; times past `UInt64.max` give `UInt64.max`.
public func CMClockConvertHostTimeToSystemUnits(_ hostTime: CMTime) -> UInt64 {
    guard hostTime.kind == .numeric, hostTime.value > 0 else { return 0 }
    let (nanoseconds, _) = CMTime.roundedQuotient(
        Int128(hostTime.value) * Int128(CMClock.hostTimescale), Int128(hostTime.timescale), .roundHalfAwayFromZero)
    return UInt64(exactly: nanoseconds) ?? .max
}

/// Makes a host time from system units (nanoseconds on Linux), at timescale 1 000 000 000
/// (halved while the value does not fit).
public func CMClockMakeHostTimeFromSystemUnits(_ hostTime: UInt64) -> CMTime {
    CMTime.nearest(
        numerator: Int128(hostTime), denominator: Int128(CMClock.hostTimescale), timescale: CMClock.hostTimescale,
        epoch: 0, rounded: false)
}
