// CMTimebase.h, spelled as iOS code spells it: the C functions, constants and notifications,
// the Swift overlay's CMTimebase members, and the deprecated "master" spellings.
// CFRunLoopTimer/CFRunLoop are Foundation's Timer/RunLoop here, dispatch_source_t a
// DispatchSourceTimer.
import CoreMedia
import Dispatch
import Foundation
import QuartzCore
import Testing

/// Touches every current declaration of CMTimebase.h; compiled, never called.
func spellCMTimebase(_ clock: CMClock, timer: Timer, runLoop: RunLoop, source: any DispatchSourceTimer) throws {
    var made: CMTimebase?
    let created: (OSStatus, OSStatus) = (
        CMTimebaseCreateWithSourceClock(allocator: kCFAllocatorDefault, sourceClock: clock, timebaseOut: &made),
        CMTimebaseCreateWithSourceTimebase(allocator: nil, sourceTimebase: made!, timebaseOut: &made))
    let timebase: CMTimebase = made!
    let sources: (CMClockOrTimebase, CMClock?, CMTimebase?, CMClock) = (
        CMTimebaseCopySource(timebase), CMTimebaseCopySourceClock(timebase), CMTimebaseCopySourceTimebase(timebase),
        CMTimebaseCopyUltimateSourceClock(timebase))
    let setSources: (OSStatus, OSStatus) = (
        CMTimebaseSetSourceClock(timebase, clock), CMTimebaseSetSourceTimebase(timebase, timebase))
    let times: (CMTime, CMTime, Float64, Float64) = (
        CMTimebaseGetTime(timebase), CMTimebaseGetTimeWithTimeScale(timebase, timescale: 600, method: .default),
        CMTimebaseGetRate(timebase), CMTimebaseGetEffectiveRate(timebase))
    var time = CMTime.invalid
    var rate: Float64 = 0
    let sets: (OSStatus, OSStatus, OSStatus, OSStatus, OSStatus) = (
        CMTimebaseGetTimeAndRate(timebase, timeOut: &time, rateOut: &rate), CMTimebaseSetTime(timebase, time: .zero),
        CMTimebaseSetAnchorTime(timebase, timebaseTime: .zero, immediateSourceTime: CMClockGetTime(clock)),
        CMTimebaseSetRate(timebase, rate: 1),
        CMTimebaseSetRateAndAnchorTime(timebase, rate: 1, anchorTime: .zero, immediateSourceTime: CMClockGetTime(clock)))
    let timers: [OSStatus] = [
        CMTimebaseAddTimer(timebase, timer: timer, runloop: runLoop),
        CMTimebaseSetTimerNextFireTime(timebase, timer: timer, fireTime: .zero, flags: 0),
        CMTimebaseSetTimerToFireImmediately(timebase, timer: timer), CMTimebaseRemoveTimer(timebase, timer: timer),
        CMTimebaseAddTimerDispatchSource(timebase, timerSource: source),
        CMTimebaseSetTimerDispatchSourceNextFireTime(timebase, timerSource: source, fireTime: .zero, flags: 0),
        CMTimebaseSetTimerDispatchSourceToFireImmediately(timebase, timerSource: source),
        CMTimebaseRemoveTimerDispatchSource(timebase, timerSource: source), CMTimebaseNotificationBarrier(timebase),
    ]
    let names: [NSNotification.Name] = [
        NSNotification.Name(kCMTimebaseNotification_EffectiveRateChanged as String),
        NSNotification.Name(kCMTimebaseNotification_TimeJumped as String), CMTimebase.effectiveRateChanged, CMTimebase.timeJumped,
    ]
    let keys: (String, CMTimebase.NotificationKey) = (kCMTimebaseNotificationKey_EventTime as String, CMTimebase.NotificationKey.eventTime)
    let far: (CFTimeInterval, Double, CFTimeInterval, Double) = (
        kCMTimebaseVeryLongCFTimeInterval, kCMTimebaseFarFutureCFAbsoluteTime, CMTimebase.veryLongTimeInterval, CMTimebase.farFuture)
    let errors: [NSError] = [
        CMTimebase.Error.missingRequiredParameter, CMTimebase.Error.invalidParameter, CMTimebase.Error.allocationFailed,
        CMTimebase.Error.timerIntervalTooShort, CMTimebase.Error.readOnly,
    ]
    _ = (created, sources, setSources, times, sets, timers, names, keys, far, errors)
}

/// Touches the Swift overlay's CMTimebase members; compiled, never called.
func spellCMTimebaseOverlay(_ clock: CMClock, timer: Timer, runLoop: RunLoop, source: any DispatchSourceTimer) throws {
    let timebase: CMTimebase = try CMTimebase(sourceClock: clock)
    let child: CMTimebase = try CMTimebase(sourceTimebase: timebase)
    let reads: (CMTime, Double, (time: CMTime, rate: Double), Double) = (
        timebase.time, timebase.rate, timebase.timeAndRate, timebase.effectiveRate)
    let sources: (any CMSyncProtocol, CMClock?, CMTimebase?, CMClock) = (
        child.source, child.sourceClock, child.sourceTimebase, child.ultimateSourceClock)
    child.source = clock
    try timebase.setTime(.zero)
    try timebase.setAnchorTime(.zero, referenceTime: clock.time)
    try timebase.setRate(1)
    try timebase.setRateAndAnchorTime(rate: 1, anchorTime: .zero, referenceTime: clock.time)
    try timebase.addTimer(timer, on: runLoop)
    try timebase.setTimerNextFireTime(timer, fireTime: .zero)
    try timebase.setTimerToFireImmediately(timer)
    try timebase.removeTimer(timer)
    try timebase.addTimer(source)
    try timebase.setTimerNextFireTime(source, fireTime: .zero)
    try timebase.setTimerToFireImmediately(source)
    try timebase.removeTimer(source)
    try timebase.notificationBarrier()
    let sync: (CMTime, Double, Bool) = (
        timebase.convertTime(.zero, to: clock), timebase.rate(relativeTo: child), timebase.mightDrift(relativeTo: clock))
    let both: (rate: Double, anchorTime: CMTime, referenceTime: CMTime) = try timebase.rateAndAnchorTime(relativeTo: clock)
    func generic<T: CMSyncProtocol>(_ sync: T) -> CMTime { sync.time }
    let fromHost: CMTime = CMSyncConvertTime(.zero, from: clock, to: timebase)
    _ = (reads, sources, sync, both, generic(timebase), fromHost, CMSyncGetTime(timebase))
}

/// Touches the deprecated "master" spellings; compiled, never called.
@available(*, deprecated)
func spellCMTimebaseDeprecated(_ clock: CMClock, _ timebase: CMTimebase) throws {
    var made: CMTimebase?
    let created: (OSStatus, OSStatus) = (
        CMTimebaseCreateWithMasterClock(allocator: nil, masterClock: clock, timebaseOut: &made),
        CMTimebaseCreateWithMasterTimebase(allocator: nil, masterTimebase: timebase, timebaseOut: &made))
    let gets: (CMTimebase?, CMClock?, CMClockOrTimebase?, CMClock?) = (
        CMTimebaseGetMasterTimebase(timebase), CMTimebaseGetMasterClock(timebase), CMTimebaseGetMaster(timebase),
        CMTimebaseGetUltimateMasterClock(timebase))
    let copies: (CMClockOrTimebase, CMClock?, CMTimebase?, CMClock) = (
        CMTimebaseCopyMaster(timebase), CMTimebaseCopyMasterClock(timebase), CMTimebaseCopyMasterTimebase(timebase),
        CMTimebaseCopyUltimateMasterClock(timebase))
    let sets: (OSStatus, OSStatus) = (CMTimebaseSetMasterClock(timebase, clock), CMTimebaseSetMasterTimebase(timebase, timebase))
    CMTimebaseSetAnchorTime(timebase, timebaseTime: .zero, immediateMasterTime: .zero)
    CMTimebaseSetRateAndAnchorTime(timebase, rate: 1, anchorTime: .zero, immediateMasterTime: .zero)
    let overlay: (CMTimebase, CMTimebase, CMClock?, CMClock) = (
        try CMTimebase(masterClock: clock), try CMTimebase(masterTimebase: timebase), timebase.masterClock,
        timebase.ultimateMasterClock)
    _ = (created, gets, copies, sets, overlay)
}

@Suite("CMTimebase spelling")
struct CMTimebaseSpellingTests {
    @Test("a new timebase on the host clock has rate 0 and time 0, and runs once a rate is set")
    func createAndRun() throws {
        let host = CMClockGetHostTimeClock()
        var made: CMTimebase?
        #expect(CMTimebaseCreateWithSourceClock(allocator: kCFAllocatorDefault, sourceClock: host, timebaseOut: &made) == noErr)
        let timebase = try #require(made)
        #expect(CMTimebaseGetRate(timebase) == 0 && CMTimebaseGetTime(timebase) == .zero)
        #expect(CMTimebaseCopySourceClock(timebase) === host && CMTimebaseCopySourceTimebase(timebase) == nil)
        let anchor = CMClockGetTime(host)
        #expect(CMTimebaseSetRateAndAnchorTime(timebase, rate: 2, anchorTime: CMTime(value: 10, timescale: 1), immediateSourceTime: anchor) == noErr)
        let before = CMClockGetTime(host)
        let time = CMTimebaseGetTime(timebase)
        let after = CMClockGetTime(host)
        #expect(time >= CMTime(value: 10, timescale: 1) + CMTimeMultiply(before - anchor, multiplier: 2))
        #expect(time <= CMTime(value: 10, timescale: 1) + CMTimeMultiply(after - anchor, multiplier: 2))
        #expect(CMTimebaseGetEffectiveRate(timebase) == 2)
    }

    @Test("the overlay's throwing initializer and setters; errors are CMTimebase.Error values")
    func overlay() throws {
        let timebase = try CMTimebase(sourceClock: .hostTimeClock)
        try timebase.setTime(CMTime(value: 3, timescale: 1))
        #expect(timebase.time == CMTime(value: 3, timescale: 1) && timebase.rate == 0)
        let child = try CMTimebase(sourceTimebase: timebase)
        try child.setRate(0.5)
        #expect(child.effectiveRate == 0 && child.sourceTimebase === timebase)
        #expect(child.ultimateSourceClock === CMClock.hostTimeClock)
        #expect(throws: CMTimebase.Error.invalidParameter) { try timebase.setRate(.nan) }
        #expect(kCMTimebaseVeryLongCFTimeInterval == 256 * 365 * 24 * 3600)
    }
}
