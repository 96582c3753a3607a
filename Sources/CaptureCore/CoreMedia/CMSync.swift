import Foundation

// The rest of CMSync.h's clock functions, for clocks and timebases (`CMTimebase`). Every
// clock here is the host clock plus a fixed offset (see `CMClock`), so two clocks never
// drift apart and run at the same rate: what CMSync measures between real hardware clocks
// is exact here. A timebase runs at its effective rate relative to host time.

/// A required parameter was missing. The corresponding C constant is
/// `kCMClockError_MissingRequiredParameter`.
public let kCMClockError_MissingRequiredParameter: OSStatus = -12745
/// A parameter was invalid (for example an invalidated clock).
public let kCMClockError_InvalidParameter: OSStatus = -12746
/// An allocation failed.
public let kCMClockError_AllocationFailed: OSStatus = -12747
/// The clock does not support the operation.
public let kCMClockError_UnsupportedOperation: OSStatus = -12756
/// A required timebase parameter was missing.
public let kCMTimebaseError_MissingRequiredParameter: OSStatus = -12748
/// A timebase parameter was invalid.
public let kCMTimebaseError_InvalidParameter: OSStatus = -12749
/// A timebase allocation failed.
public let kCMTimebaseError_AllocationFailed: OSStatus = -12750
/// A timebase timer interval was too short.
public let kCMTimebaseError_TimerIntervalTooShort: OSStatus = -12751
/// The timebase is read-only.
public let kCMTimebaseError_ReadOnly: OSStatus = -12757
/// A required parameter was missing.
public let kCMSyncError_MissingRequiredParameter: OSStatus = -12752
/// A parameter was invalid.
public let kCMSyncError_InvalidParameter: OSStatus = -12753
/// An allocation failed.
public let kCMSyncError_AllocationFailed: OSStatus = -12754
/// The rate must not be zero.
public let kCMSyncError_RateMustBeNonZero: OSStatus = -12755

/// Reads the clock's time and, at the same instant, its reference clock's: the host time
/// clock for every clock here. `kCMClockError_InvalidParameter` once the clock is invalidated.
@discardableResult
public func CMClockGetAnchorTime(
    _ clock: CMClock, clockTimeOut: UnsafeMutablePointer<CMTime>, referenceClockTimeOut: UnsafeMutablePointer<CMTime>
) -> OSStatus {
    guard clock.isValid else { return kCMClockError_InvalidParameter }
    let host = CMClock.currentHostTime()
    clockTimeOut.pointee = CMTimeAdd(host, clock.offsetFromHost)
    referenceClockTimeOut.pointee = host
    return noErr
}

/// Whether two clocks might drift relative to each other: never here (every clock is the
/// host clock plus a fixed offset).
public func CMClockMightDrift(_ clock: CMClock, otherClock: CMClock) -> Bool { false }

/// Stops the clock working: afterwards its time is invalid and its functions report errors.
/// Only the clock's owner should call this.
public func CMClockInvalidate(_ clock: CMClock) { clock.markInvalid() }

/// The current time of a clock (`CMClockGetTime`) or timebase (`CMTimebaseGetTime`); invalid
/// for any other object.
public func CMSyncGetTime(_ clockOrTimebase: CMClockOrTimebase) -> CMTime {
    if let clock = clockOrTimebase as? CMClock { return clock.time }
    if let timebase = clockOrTimebase as? CMTimebase { return timebase.time }
    return .invalid
}

/// The rate of one clock or timebase relative to another: the ratio of their rates against
/// host time (1 between clocks, which never drift; a timebase's effective rate against a
/// clock). NaN relative to a stopped timebase, and when either is an invalidated clock (or
/// runs from one) or neither a clock nor a timebase.
public func CMSyncGetRelativeRate(_ ofClockOrTimebase: CMClockOrTimebase, relativeTo relativeToClockOrTimebase: CMClockOrTimebase) -> Float64 {
    guard let rate = _syncRate(of: ofClockOrTimebase), let reference = _syncRate(of: relativeToClockOrTimebase),
        reference != 0
    else { return .nan }
    return rate / reference
}

/// The relative rate (see `CMSyncGetRelativeRate`) and the two times at one instant.
/// `kCMSyncError_InvalidParameter` when either is an invalidated clock (or runs from one) or
/// neither a clock nor a timebase.
@discardableResult
public func CMSyncGetRelativeRateAndAnchorTime(
    _ ofClockOrTimebase: CMClockOrTimebase, relativeTo relativeToClockOrTimebase: CMClockOrTimebase,
    outRelativeRate: UnsafeMutablePointer<Float64>?, outOfClockOrTimebaseAnchorTime: UnsafeMutablePointer<CMTime>?,
    outRelativeToClockOrTimebaseAnchorTime: UnsafeMutablePointer<CMTime>?
) -> OSStatus {
    guard _syncRate(of: ofClockOrTimebase) != nil, _syncRate(of: relativeToClockOrTimebase) != nil else {
        return kCMSyncError_InvalidParameter
    }
    let host = CMClock.currentHostTime()
    outRelativeRate?.pointee = CMSyncGetRelativeRate(ofClockOrTimebase, relativeTo: relativeToClockOrTimebase)
    outOfClockOrTimebaseAnchorTime?.pointee = _syncTime(of: ofClockOrTimebase, atHostTime: host)
    outRelativeToClockOrTimebaseAnchorTime?.pointee = _syncTime(of: relativeToClockOrTimebase, atHostTime: host)
    return noErr
}

/// Whether two clocks or timebases might drift relative to each other: never here (every
/// clock, and so every timebase's ultimate clock, is the host clock plus a fixed offset).
public func CMSyncMightDrift(_ clockOrTimebase1: CMClockOrTimebase, _ clockOrTimebase2: CMClockOrTimebase) -> Bool { false }

/// What clocks and timebases share, as the Swift overlay's `CMSyncProtocol`. `CMClock` and
/// `CMTimebase` conform.
public protocol CMSyncProtocol: Sendable {
    /// The current time.
    var time: CMTime { get }
    /// Converts `time` from this timeline to another's (`CMSyncConvertTime`).
    func convertTime<T: CMSyncProtocol>(_ time: CMTime, to clockOrTimebase: T) -> CMTime
    /// The rate of this clock relative to another (`CMSyncGetRelativeRate`).
    func rate<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) -> Double
    /// The relative rate and both times at one instant (`CMSyncGetRelativeRateAndAnchorTime`).
    func rateAndAnchorTime<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) throws -> (rate: Double, anchorTime: CMTime, referenceTime: CMTime)
    /// Whether the two might drift apart (`CMSyncMightDrift`).
    func mightDrift<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) -> Bool
}

extension CMClock: CMSyncProtocol {
    /// The clock's time and its reference (host) clock's time at one instant; throws once
    /// the clock is invalidated.
    public func anchorTime() throws -> (anchorTime: CMTime, referenceTime: CMTime) {
        var clockTime = CMTime.invalid
        var referenceTime = CMTime.invalid
        let status = CMClockGetAnchorTime(self, clockTimeOut: &clockTime, referenceClockTimeOut: &referenceTime)
        guard status == noErr else { throw NSError(domain: "NSOSStatusErrorDomain", code: Int(status)) }
        return (clockTime, referenceTime)
    }

    /// Whether this clock might drift relative to `otherClock` (`CMClockMightDrift`).
    public func mightDrift(relativeTo otherClock: CMClock) -> Bool { CMClockMightDrift(self, otherClock: otherClock) }

    /// Stops the clock working (`CMClockInvalidate`).
    public func invalidate() { CMClockInvalidate(self) }

    public func convertTime<T: CMSyncProtocol>(_ time: CMTime, to clockOrTimebase: T) -> CMTime {
        guard let other = _syncObject(clockOrTimebase) else { return .invalid }
        return CMSyncConvertTime(time, from: self, to: other)
    }

    public func rate<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) -> Double {
        guard let other = _syncObject(clockOrTimebase) else { return .nan }
        return CMSyncGetRelativeRate(self, relativeTo: other)
    }

    public func rateAndAnchorTime<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) throws -> (rate: Double, anchorTime: CMTime, referenceTime: CMTime) {
        guard let other = _syncObject(clockOrTimebase) else { throw NSError(domain: "NSOSStatusErrorDomain", code: Int(kCMSyncError_InvalidParameter)) }
        var rate = Double.nan
        var anchor = CMTime.invalid
        var reference = CMTime.invalid
        let status = CMSyncGetRelativeRateAndAnchorTime(
            self, relativeTo: other, outRelativeRate: &rate, outOfClockOrTimebaseAnchorTime: &anchor,
            outRelativeToClockOrTimebaseAnchorTime: &reference)
        guard status == noErr else { throw NSError(domain: "NSOSStatusErrorDomain", code: Int(status)) }
        return (rate, anchor, reference)
    }

    public func mightDrift<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) -> Bool {
        guard let other = _syncObject(clockOrTimebase) else { return true }
        return CMSyncMightDrift(self, other)
    }
}
