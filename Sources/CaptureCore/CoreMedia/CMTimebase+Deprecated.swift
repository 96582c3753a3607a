import Foundation

// CMTimebase.h's deprecated "master" spellings and the overlay's deprecated members. Each
// does what its "source" replacement does.

/// Deprecated: use `CMTimebaseCreateWithSourceClock`.
@available(*, deprecated, renamed: "CMTimebaseCreateWithSourceClock(allocator:sourceClock:timebaseOut:)")
@discardableResult
public func CMTimebaseCreateWithMasterClock(
    allocator: AnyObject?, masterClock: CMClock, timebaseOut: UnsafeMutablePointer<CMTimebase?>
) -> OSStatus {
    CMTimebaseCreateWithSourceClock(allocator: allocator, sourceClock: masterClock, timebaseOut: timebaseOut)
}

/// Deprecated: use `CMTimebaseCreateWithSourceTimebase`.
@available(*, deprecated, renamed: "CMTimebaseCreateWithSourceTimebase(allocator:sourceTimebase:timebaseOut:)")
@discardableResult
public func CMTimebaseCreateWithMasterTimebase(
    allocator: AnyObject?, masterTimebase: CMTimebase, timebaseOut: UnsafeMutablePointer<CMTimebase?>
) -> OSStatus {
    CMTimebaseCreateWithSourceTimebase(allocator: allocator, sourceTimebase: masterTimebase, timebaseOut: timebaseOut)
}

/// Deprecated: use `CMTimebaseCopySourceTimebase`.
@available(*, deprecated, renamed: "CMTimebaseCopySourceTimebase(_:)")
public func CMTimebaseGetMasterTimebase(_ timebase: CMTimebase) -> CMTimebase? { CMTimebaseCopySourceTimebase(timebase) }

/// Deprecated: use `CMTimebaseCopySourceClock`.
@available(*, deprecated, renamed: "CMTimebaseCopySourceClock(_:)")
public func CMTimebaseGetMasterClock(_ timebase: CMTimebase) -> CMClock? { CMTimebaseCopySourceClock(timebase) }

/// Deprecated: use `CMTimebaseCopySource`.
@available(*, deprecated, renamed: "CMTimebaseCopySource(_:)")
public func CMTimebaseGetMaster(_ timebase: CMTimebase) -> CMClockOrTimebase? { CMTimebaseCopySource(timebase) }

/// Deprecated: use `CMTimebaseCopyUltimateSourceClock`.
@available(*, deprecated, renamed: "CMTimebaseCopyUltimateSourceClock(_:)")
public func CMTimebaseGetUltimateMasterClock(_ timebase: CMTimebase) -> CMClock? {
    CMTimebaseCopyUltimateSourceClock(timebase)
}

/// Deprecated: use `CMTimebaseCopySource`.
@available(*, deprecated, renamed: "CMTimebaseCopySource(_:)")
public func CMTimebaseCopyMaster(_ timebase: CMTimebase) -> CMClockOrTimebase { CMTimebaseCopySource(timebase) }

/// Deprecated: use `CMTimebaseCopySourceClock`.
@available(*, deprecated, renamed: "CMTimebaseCopySourceClock(_:)")
public func CMTimebaseCopyMasterClock(_ timebase: CMTimebase) -> CMClock? { CMTimebaseCopySourceClock(timebase) }

/// Deprecated: use `CMTimebaseCopySourceTimebase`.
@available(*, deprecated, renamed: "CMTimebaseCopySourceTimebase(_:)")
public func CMTimebaseCopyMasterTimebase(_ timebase: CMTimebase) -> CMTimebase? { CMTimebaseCopySourceTimebase(timebase) }

/// Deprecated: use `CMTimebaseCopyUltimateSourceClock`.
@available(*, deprecated, renamed: "CMTimebaseCopyUltimateSourceClock(_:)")
public func CMTimebaseCopyUltimateMasterClock(_ timebase: CMTimebase) -> CMClock {
    CMTimebaseCopyUltimateSourceClock(timebase)
}

/// Deprecated: use `CMTimebaseSetSourceClock`.
@available(*, deprecated, renamed: "CMTimebaseSetSourceClock(_:_:)")
@discardableResult
public func CMTimebaseSetMasterClock(_ timebase: CMTimebase, _ newMasterClock: CMClock) -> OSStatus {
    CMTimebaseSetSourceClock(timebase, newMasterClock)
}

/// Deprecated: use `CMTimebaseSetSourceTimebase`.
@available(*, deprecated, renamed: "CMTimebaseSetSourceTimebase(_:_:)")
@discardableResult
public func CMTimebaseSetMasterTimebase(_ timebase: CMTimebase, _ newMasterTimebase: CMTimebase) -> OSStatus {
    CMTimebaseSetSourceTimebase(timebase, newMasterTimebase)
}

/// Deprecated overlay spelling of `CMTimebaseSetAnchorTime(_:timebaseTime:immediateSourceTime:)`.
@available(*, deprecated, renamed: "CMTimebaseSetAnchorTime(_:timebaseTime:immediateSourceTime:)")
public func CMTimebaseSetAnchorTime(_ timebase: CMTimebase, timebaseTime: CMTime, immediateMasterTime: CMTime) {
    CMTimebaseSetAnchorTime(timebase, timebaseTime: timebaseTime, immediateSourceTime: immediateMasterTime)
}

/// Deprecated overlay spelling of `CMTimebaseSetRateAndAnchorTime(_:rate:anchorTime:immediateSourceTime:)`.
@available(*, deprecated, renamed: "CMTimebaseSetRateAndAnchorTime(_:rate:anchorTime:immediateSourceTime:)")
public func CMTimebaseSetRateAndAnchorTime(_ timebase: CMTimebase, rate: Double, anchorTime: CMTime, immediateMasterTime: CMTime) {
    CMTimebaseSetRateAndAnchorTime(timebase, rate: rate, anchorTime: anchorTime, immediateSourceTime: immediateMasterTime)
}

extension CMTimebase {
    /// Deprecated: use `init(sourceClock:)`.
    @available(*, deprecated, renamed: "init(sourceClock:)")
    public convenience init(masterClock: CMClock) throws {
        try self.init(sourceClock: masterClock)
    }

    /// Deprecated: use `init(sourceTimebase:)`.
    @available(*, deprecated, renamed: "init(sourceTimebase:)")
    public convenience init(masterTimebase: CMTimebase) throws {
        try self.init(sourceTimebase: masterTimebase)
    }

    /// Deprecated synonym for `sourceClock`.
    @available(*, deprecated, renamed: "sourceClock")
    public var masterClock: CMClock? { sourceClock }

    /// Deprecated synonym for `ultimateSourceClock`.
    @available(*, deprecated, renamed: "ultimateSourceClock")
    public var ultimateMasterClock: CMClock { ultimateSourceClock }
}
