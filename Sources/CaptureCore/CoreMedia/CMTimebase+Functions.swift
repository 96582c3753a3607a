import Foundation

// CMTimebase.h's functions and constants, as Swift imports them. CFRunLoopTimer and
// CFRunLoop are Foundation's `Timer` and `RunLoop` here, `dispatch_source_t` a
// `DispatchSourceTimer`, CFString a `String` and the allocator an unused `AnyObject?`.

/// A very long time interval in seconds (256 years): the interval a run-loop timer added
/// with `CMTimebaseAddTimer` must have at least. The C macro is
/// `kCMTimebaseVeryLongCFTimeInterval`.
public let kCMTimebaseVeryLongCFTimeInterval: Double = 256.0 * 365.0 * 24.0 * 60.0 * 60.0

/// An absolute time (seconds since 2001) far in the future: where a timebase parks the fire
/// date of a timer that should not fire. The C macro is `kCMTimebaseFarFutureCFAbsoluteTime`.
public let kCMTimebaseFarFutureCFAbsoluteTime: Double = kCMTimebaseVeryLongCFTimeInterval

/// Posted by a timebase after a change in effective rate (its own rate or a source
/// timebase's). The object is the timebase.
public let kCMTimebaseNotification_EffectiveRateChanged = "CMTimebaseEffectiveRateChanged"

/// Posted by a timebase after a discontinuous time jump (setting its time or anchor, or a
/// jump of a source timebase while it runs). The object is the timebase.
public let kCMTimebaseNotification_TimeJumped = "CMTimebaseTimeJumped"

/// The notifications' payload key for the timebase time at which the rate change or jump
/// occurred, as a CMTime dictionary (`CMTimeMakeFromDictionary` reads it).
public let kCMTimebaseNotificationKey_EventTime = "EventTime"

/// Creates a timebase with rate 0 and time 0 driven by `sourceClock`.
/// `kCMTimebaseError_InvalidParameter` for an invalidated clock.
@discardableResult
public func CMTimebaseCreateWithSourceClock(
    allocator: AnyObject?, sourceClock: CMClock, timebaseOut: UnsafeMutablePointer<CMTimebase?>
) -> OSStatus {
    guard sourceClock.isValid else { return kCMTimebaseError_InvalidParameter }
    timebaseOut.pointee = CMTimebase(source: .clock(sourceClock))
    return noErr
}

/// Creates a timebase with rate 0 and time 0 driven by `sourceTimebase`.
@discardableResult
public func CMTimebaseCreateWithSourceTimebase(
    allocator: AnyObject?, sourceTimebase: CMTimebase, timebaseOut: UnsafeMutablePointer<CMTimebase?>
) -> OSStatus {
    timebaseOut.pointee = CMTimebase(source: .timebase(sourceTimebase))
    return noErr
}

/// The timebase's immediate source: a `CMClock` or a `CMTimebase`.
public func CMTimebaseCopySource(_ timebase: CMTimebase) -> CMClockOrTimebase { timebase._source.object }

/// The immediate source clock, or nil when the source is a timebase.
public func CMTimebaseCopySourceClock(_ timebase: CMTimebase) -> CMClock? {
    if case .clock(let clock) = timebase._source { return clock }
    return nil
}

/// The immediate source timebase, or nil when the source is a clock.
public func CMTimebaseCopySourceTimebase(_ timebase: CMTimebase) -> CMTimebase? {
    if case .timebase(let source) = timebase._source { return source }
    return nil
}

/// The clock at the end of the timebase's chain of sources.
public func CMTimebaseCopyUltimateSourceClock(_ timebase: CMTimebase) -> CMClock { timebase._source.ultimateClock }

/// Makes a clock the timebase's source, keeping its current time and rate.
/// `kCMTimebaseError_InvalidParameter` for an invalidated clock.
@discardableResult
public func CMTimebaseSetSourceClock(_ timebase: CMTimebase, _ newSourceClock: CMClock) -> OSStatus {
    timebase.setSource(.clock(newSourceClock))
}

/// Makes another timebase the source, keeping the current time and rate.
/// `kCMTimebaseError_InvalidParameter` when that would make a loop (the timebase itself or
/// one that runs from it).
@discardableResult
public func CMTimebaseSetSourceTimebase(_ timebase: CMTimebase, _ newSourceTimebase: CMTimebase) -> OSStatus {
    timebase.setSource(.timebase(newSourceTimebase))
}

/// The timebase's current time: `anchorTime + rate × (sourceTime − sourceAnchorTime)`.
public func CMTimebaseGetTime(_ timebase: CMTimebase) -> CMTime { timebase._timeAndRate.time }

/// The current time converted to `timescale` with `method`.
public func CMTimebaseGetTimeWithTimeScale(
    _ timebase: CMTimebase, timescale: CMTimeScale, method: CMTimeRoundingMethod
) -> CMTime {
    CMTimeConvertScale(CMTimebaseGetTime(timebase), timescale: timescale, method: method)
}

/// Sets the current time: the same as `CMTimebaseSetAnchorTime` with the source's current
/// time. Posts `kCMTimebaseNotification_TimeJumped`; `kCMTimebaseError_InvalidParameter`
/// for a non-numeric time.
@discardableResult
public func CMTimebaseSetTime(_ timebase: CMTimebase, time: CMTime) -> OSStatus {
    timebase.change(rate: nil, time: time, sourceTime: nil, timeJumped: true)
}

/// Sets the timebase's time at a particular source time; the rate is unchanged. Posts
/// `kCMTimebaseNotification_TimeJumped`; `kCMTimebaseError_InvalidParameter` for a
/// non-numeric time.
@discardableResult
public func CMTimebaseSetAnchorTime(_ timebase: CMTimebase, timebaseTime: CMTime, immediateSourceTime: CMTime) -> OSStatus {
    timebase.change(rate: nil, time: timebaseTime, sourceTime: immediateSourceTime, timeJumped: true)
}

/// The rate relative to the immediate source.
public func CMTimebaseGetRate(_ timebase: CMTimebase) -> Float64 { timebase._timeAndRate.rate }

/// The current time and rate, read together.
@discardableResult
public func CMTimebaseGetTimeAndRate(
    _ timebase: CMTimebase, timeOut: UnsafeMutablePointer<CMTime>?, rateOut: UnsafeMutablePointer<Float64>?
) -> OSStatus {
    let (time, rate) = timebase._timeAndRate
    timeOut?.pointee = time
    rateOut?.pointee = rate
    return noErr
}

/// Sets the rate from now on; the time does not jump. Posts
/// `kCMTimebaseNotification_EffectiveRateChanged` when the effective rate changes;
/// `kCMTimebaseError_InvalidParameter` for a NaN or infinite rate.
@discardableResult
public func CMTimebaseSetRate(_ timebase: CMTimebase, rate: Float64) -> OSStatus {
    timebase.change(rate: rate, time: nil, sourceTime: nil, timeJumped: false)
}

/// Sets the time at a particular source time and the rate from exactly then. Posts
/// `kCMTimebaseNotification_TimeJumped`, and `…EffectiveRateChanged` when the effective rate
/// changes.
@discardableResult
public func CMTimebaseSetRateAndAnchorTime(
    _ timebase: CMTimebase, rate: Float64, anchorTime timebaseTime: CMTime, immediateSourceTime: CMTime
) -> OSStatus {
    timebase.change(rate: rate, time: timebaseTime, sourceTime: immediateSourceTime, timeJumped: true)
}

/// The rate relative to the ultimate source clock: the product of the rates down the chain.
public func CMTimebaseGetEffectiveRate(_ timebase: CMTimebase) -> Float64 { timebase._effectiveRate }

/// Adds a repeating run-loop timer (interval at least `kCMTimebaseVeryLongCFTimeInterval`,
/// else `kCMTimebaseError_TimerIntervalTooShort`) scheduled on `runloop`. The timebase
/// keeps its fire date far in the future until `CMTimebaseSetTimerNextFireTime`.
@discardableResult
public func CMTimebaseAddTimer(_ timebase: CMTimebase, timer: Timer, runloop: RunLoop) -> OSStatus {
    timebase.addTimer(.runLoop(timer, runloop), object: timer)
}

/// Stops managing the timer's fire date.
@discardableResult
public func CMTimebaseRemoveTimer(_ timebase: CMTimebase, timer: Timer) -> OSStatus { timebase.removeTimer(timer) }

/// Sets the timebase time at which the timer fires next; the timebase moves its fire date
/// when the time jumps or the effective rate changes, and parks it far in the future for a
/// non-numeric time or a stopped timebase. `flags` is reserved (pass 0).
/// `kCMTimebaseError_InvalidParameter` for a timer the timebase does not manage.
@discardableResult
public func CMTimebaseSetTimerNextFireTime(_ timebase: CMTimebase, timer: Timer, fireTime: CMTime, flags: UInt32) -> OSStatus {
    timebase.setTimerNextFireTime(timer, fireTime: fireTime)
}

/// Makes the timer fire now, once, replacing its fire time.
@discardableResult
public func CMTimebaseSetTimerToFireImmediately(_ timebase: CMTimebase, timer: Timer) -> OSStatus {
    timebase.setTimerToFireImmediately(timer)
}

/// Adds a dispatch timer source (created with an event handler and resumed). Its start time
/// is `.distantFuture` (DISPATCH_TIME_FOREVER) until
/// `CMTimebaseSetTimerDispatchSourceNextFireTime`.
@discardableResult
public func CMTimebaseAddTimerDispatchSource(_ timebase: CMTimebase, timerSource: any DispatchSourceTimer) -> OSStatus {
    timebase.addTimer(.dispatch(timerSource), object: timerSource as AnyObject)
}

/// Stops managing the timer source's start time.
@discardableResult
public func CMTimebaseRemoveTimerDispatchSource(_ timebase: CMTimebase, timerSource: any DispatchSourceTimer) -> OSStatus {
    timebase.removeTimer(timerSource as AnyObject)
}

/// Sets the timebase time at which the timer source fires next (one-shot); see
/// `CMTimebaseSetTimerNextFireTime`. `flags` is reserved (pass 0).
@discardableResult
public func CMTimebaseSetTimerDispatchSourceNextFireTime(
    _ timebase: CMTimebase, timerSource: any DispatchSourceTimer, fireTime: CMTime, flags: UInt32
) -> OSStatus {
    timebase.setTimerNextFireTime(timerSource as AnyObject, fireTime: fireTime)
}

/// Makes the timer source fire now, once, replacing its fire time.
@discardableResult
public func CMTimebaseSetTimerDispatchSourceToFireImmediately(
    _ timebase: CMTimebase, timerSource: any DispatchSourceTimer
) -> OSStatus {
    timebase.setTimerToFireImmediately(timerSource as AnyObject)
}

/// Waits until the timebase is not posting notifications: every notification caused by a
/// change made before the call has been delivered when it returns. (Called from one of the
/// timebase's own notification observers, it returns at once.)
@discardableResult
public func CMTimebaseNotificationBarrier(_ timebase: CMTimebase) -> OSStatus {
    timebase.waitForNotifications()
    return noErr
}
