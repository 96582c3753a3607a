import Foundation

// The rest of CMSync.h's clock functions. Every clock here is the host clock plus a fixed
// offset (see `CMClock`), so two clocks never drift apart and run at the same rate: what
// CMSync measures between real hardware clocks is exact here. Timebases are not
// implemented (no CMTimebase type).

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

/// The time of a clock (`CMClockGetTime`).
public func CMSyncGetTime(_ clockOrTimebase: CMClockOrTimebase) -> CMTime { clockOrTimebase.time }

/// The rate of one clock relative to another: 1 here (no drift); NaN when either is invalidated.
public func CMSyncGetRelativeRate(_ ofClockOrTimebase: CMClockOrTimebase, relativeTo relativeToClockOrTimebase: CMClockOrTimebase) -> Float64 {
    ofClockOrTimebase.isValid && relativeToClockOrTimebase.isValid ? 1 : .nan
}

/// The relative rate (1) and the two clocks' times at one instant.
/// `kCMSyncError_InvalidParameter` when either clock is invalidated.
@discardableResult
public func CMSyncGetRelativeRateAndAnchorTime(
    _ ofClockOrTimebase: CMClockOrTimebase, relativeTo relativeToClockOrTimebase: CMClockOrTimebase,
    outRelativeRate: UnsafeMutablePointer<Float64>?, outOfClockOrTimebaseAnchorTime: UnsafeMutablePointer<CMTime>?,
    outRelativeToClockOrTimebaseAnchorTime: UnsafeMutablePointer<CMTime>?
) -> OSStatus {
    guard ofClockOrTimebase.isValid, relativeToClockOrTimebase.isValid else { return kCMSyncError_InvalidParameter }
    let host = CMClock.currentHostTime()
    outRelativeRate?.pointee = 1
    outOfClockOrTimebaseAnchorTime?.pointee = CMTimeAdd(host, ofClockOrTimebase.offsetFromHost)
    outRelativeToClockOrTimebaseAnchorTime?.pointee = CMTimeAdd(host, relativeToClockOrTimebase.offsetFromHost)
    return noErr
}

/// Whether two clocks might drift relative to each other: never here.
public func CMSyncMightDrift(_ clockOrTimebase1: CMClockOrTimebase, _ clockOrTimebase2: CMClockOrTimebase) -> Bool { false }

/// What clocks (and, on Apple platforms, timebases) share, as the Swift overlay's
/// `CMSyncProtocol`. Only `CMClock` conforms here.
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
        guard let other = clockOrTimebase as? CMClock else { return .invalid }
        return CMSyncConvertTime(time, from: self, to: other)
    }

    public func rate<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) -> Double {
        guard let other = clockOrTimebase as? CMClock else { return .nan }
        return CMSyncGetRelativeRate(self, relativeTo: other)
    }

    public func rateAndAnchorTime<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) throws -> (rate: Double, anchorTime: CMTime, referenceTime: CMTime) {
        guard let other = clockOrTimebase as? CMClock else { throw NSError(domain: "NSOSStatusErrorDomain", code: Int(kCMSyncError_InvalidParameter)) }
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
        guard let other = clockOrTimebase as? CMClock else { return true }
        return CMSyncMightDrift(self, other)
    }
}
