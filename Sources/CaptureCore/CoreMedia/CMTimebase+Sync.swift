import Foundation

// What CMSync.h's functions need from a clock or a timebase. Every chain of timebases ends
// at a clock, and every clock is the host clock plus an offset, so host time is the common
// timeline: converting goes through it and rates are measured against it.

/// A clock or timebase's time at a host time; invalid for any other object.
func _syncTime(of clockOrTimebase: CMClockOrTimebase, atHostTime hostTime: CMTime) -> CMTime {
    if let clock = clockOrTimebase as? CMClock { return CMTimeAdd(hostTime, clock.offsetFromHost) }
    if let timebase = clockOrTimebase as? CMTimebase { return timebase.time(atHostTime: hostTime) }
    return .invalid
}

/// The host time at which a clock or timebase reads `time`; invalid for a stopped timebase
/// or any other object.
func _syncHostTime(of clockOrTimebase: CMClockOrTimebase, forTime time: CMTime) -> CMTime {
    if let clock = clockOrTimebase as? CMClock { return CMTimeSubtract(time, clock.offsetFromHost) }
    if let timebase = clockOrTimebase as? CMTimebase { return timebase.hostTime(forTime: time) }
    return .invalid
}

/// The rate relative to host time: 1 for a clock, the effective rate for a timebase; nil for
/// an invalidated clock (or a timebase driven by one) or any other object.
func _syncRate(of clockOrTimebase: CMClockOrTimebase) -> Float64? {
    if let clock = clockOrTimebase as? CMClock { return clock.isValid ? 1 : nil }
    if let timebase = clockOrTimebase as? CMTimebase {
        return timebase._source.ultimateClock.isValid ? timebase._effectiveRate : nil
    }
    return nil
}

/// A `CMSyncProtocol` value as `CMClockOrTimebase`, if it is a clock or a timebase.
func _syncObject<T: CMSyncProtocol>(_ value: T) -> CMClockOrTimebase? {
    if let clock = value as? CMClock { return clock }
    if let timebase = value as? CMTimebase { return timebase }
    return nil
}

extension CMTimebase: CMSyncProtocol {
    /// Converts `time` from this timeline to another clock's or timebase's (`CMSyncConvertTime`).
    public func convertTime<T: CMSyncProtocol>(_ time: CMTime, to clockOrTimebase: T) -> CMTime {
        guard let other = _syncObject(clockOrTimebase) else { return .invalid }
        return CMSyncConvertTime(time, from: self, to: other)
    }

    /// The rate of this timebase relative to a clock or timebase (`CMSyncGetRelativeRate`).
    public func rate<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) -> Double {
        guard let other = _syncObject(clockOrTimebase) else { return .nan }
        return CMSyncGetRelativeRate(self, relativeTo: other)
    }

    /// The relative rate and both times at one instant (`CMSyncGetRelativeRateAndAnchorTime`).
    public func rateAndAnchorTime<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) throws -> (rate: Double, anchorTime: CMTime, referenceTime: CMTime) {
        guard let other = _syncObject(clockOrTimebase) else { throw CMTimebase.error(kCMSyncError_InvalidParameter) }
        var rate = Double.nan
        var anchor = CMTime.invalid
        var reference = CMTime.invalid
        let status = CMSyncGetRelativeRateAndAnchorTime(
            self, relativeTo: other, outRelativeRate: &rate, outOfClockOrTimebaseAnchorTime: &anchor,
            outRelativeToClockOrTimebaseAnchorTime: &reference)
        guard status == noErr else { throw CMTimebase.error(status) }
        return (rate, anchor, reference)
    }

    /// Whether this timebase might drift relative to a clock or timebase (`CMSyncMightDrift`):
    /// never here for a clock or timebase.
    public func mightDrift<T: CMSyncProtocol>(relativeTo clockOrTimebase: T) -> Bool {
        guard let other = _syncObject(clockOrTimebase) else { return true }
        return CMSyncMightDrift(self, other)
    }
}
