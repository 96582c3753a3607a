// CMSync.h (clocks), spelled as iOS code spells it: the C functions and the Swift overlay's
// CMClock members and CMSyncProtocol.
import CoreMedia
import Foundation
import Testing

/// Touches the clock declarations; compiled, never called.
func spellCMSync(_ clock: CMClock, other: CMClock) throws {
    let host: CMClock = CMClockGetHostTimeClock()
    let overlayHost: CMClock = CMClock.hostTimeClock
    var clockTime = CMTime.invalid, referenceTime = CMTime.invalid
    let anchor: OSStatus = CMClockGetAnchorTime(clock, clockTimeOut: &clockTime, referenceClockTimeOut: &referenceTime)
    var rate: Float64 = 0
    var anchorA = CMTime.invalid, anchorB = CMTime.invalid
    let relative: OSStatus = CMSyncGetRelativeRateAndAnchorTime(
        clock, relativeTo: other, outRelativeRate: &rate, outOfClockOrTimebaseAnchorTime: &anchorA,
        outRelativeToClockOrTimebaseAnchorTime: &anchorB)
    let c: (CMTime, CMTime, Bool, Bool, Float64, CMTime, UInt64, CMTime) = (
        CMClockGetTime(clock), CMSyncGetTime(clock), CMClockMightDrift(clock, otherClock: other), CMSyncMightDrift(clock, other),
        CMSyncGetRelativeRate(clock, relativeTo: other), CMSyncConvertTime(.zero, from: clock, to: host),
        CMClockConvertHostTimeToSystemUnits(.zero), CMClockMakeHostTimeFromSystemUnits(0))
    let overlay: (CMTime, (anchorTime: CMTime, referenceTime: CMTime), Bool, CMTime, Double) = (
        clock.time, try clock.anchorTime(), clock.mightDrift(relativeTo: other), clock.convertTime(.zero, to: other),
        clock.rate(relativeTo: other))
    let both: (rate: Double, anchorTime: CMTime, referenceTime: CMTime) = try clock.rateAndAnchorTime(relativeTo: other)
    let errors: [OSStatus] = [
        kCMClockError_MissingRequiredParameter, kCMClockError_InvalidParameter, kCMClockError_AllocationFailed,
        kCMClockError_UnsupportedOperation, kCMTimebaseError_MissingRequiredParameter, kCMTimebaseError_InvalidParameter,
        kCMTimebaseError_AllocationFailed, kCMTimebaseError_TimerIntervalTooShort, kCMTimebaseError_ReadOnly,
        kCMSyncError_MissingRequiredParameter, kCMSyncError_InvalidParameter, kCMSyncError_AllocationFailed,
        kCMSyncError_RateMustBeNonZero,
    ]
    func generic<T: CMSyncProtocol>(_ sync: T) -> CMTime { sync.time }
    CMClockInvalidate(other)
    clock.invalidate()
    _ = (overlayHost, anchor, relative, c, overlay, both, errors, generic(clock))
}

@Suite("CMSync spelling")
struct CMSyncSpellingTests {
    @Test("the host clock's anchor time is its own time, read at one instant; clocks never drift here")
    func anchorTimeAndDrift() throws {
        let host = CMClockGetHostTimeClock()
        let before = CMClockGetTime(host)
        var clockTime = CMTime.invalid, referenceTime = CMTime.invalid
        #expect(CMClockGetAnchorTime(host, clockTimeOut: &clockTime, referenceClockTimeOut: &referenceTime) == noErr)
        #expect(clockTime == referenceTime, "the host clock is its own reference")
        #expect(clockTime >= before && clockTime <= CMClockGetTime(host))
        let (anchor, reference) = try host.anchorTime()
        #expect(anchor == reference)
        #expect(!CMClockMightDrift(host, otherClock: host) && !host.mightDrift(relativeTo: host))
        #expect(CMSyncGetRelativeRate(host, relativeTo: host) == 1 && host.rate(relativeTo: host) == 1)
        let both = try host.rateAndAnchorTime(relativeTo: host)
        #expect(both.rate == 1 && both.anchorTime == both.referenceTime)
        #expect(CMSyncGetTime(host) >= clockTime)
        #expect(host.convertTime(CMTime(value: 5, timescale: 1), to: host) == CMTime(value: 5, timescale: 1))
    }
}
