import Dispatch
import Foundation
import Testing

@testable import CaptureCore

/// A value behind a lock that escaping closures can share.
private final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    var value: Value { mutex.withLock { $0 } }
    func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
}

/// Collects a timebase's notifications (name and event time) until `stop()`.
private final class NotificationRecorder: @unchecked Sendable {
    private let received = Shared<[(name: String, eventTime: CMTime)]>([])
    private var tokens: [NSObjectProtocol] = []

    init(_ timebase: CMTimebase, onPost: (@Sendable () -> Void)? = nil) {
        for name in [kCMTimebaseNotification_TimeJumped, kCMTimebaseNotification_EffectiveRateChanged] {
            tokens.append(NotificationCenter.default.addObserver(
                forName: NSNotification.Name(name), object: timebase, queue: nil
            ) { [received] notification in
                let eventTime = CMTimeMakeFromDictionary(
                    notification.userInfo?[kCMTimebaseNotificationKey_EventTime] as? [String: Any])
                received.update { $0.append((notification.name.rawValue, eventTime)) }
                onPost?()
            })
        }
    }

    /// The names received so far (after a barrier on the timebase).
    var names: [String] { received.value.map(\.name) }
    var eventTimes: [CMTime] { received.value.map(\.eventTime) }

    /// Removes the observers; call once, from the test.
    func stop() {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}

/// Times a timer fired at, read from the timebase in its handler.
private final class FireRecorder: Sendable {
    let fired = DispatchSemaphore(value: 0)
    private let times = Shared<[CMTime]>([])
    var fireTimes: [CMTime] { times.value }
    func record(_ time: CMTime) {
        times.update { $0.append(time) }
        fired.signal()
    }
}

/// Timers may fire this much before their time (clock granularity).
private let slack = CMTime(value: 1, timescale: 1000)
/// A generous bound on how late a timer may fire on a loaded machine.
private let late = CMTime(value: 5, timescale: 1)
private let second = CMTime(value: 1, timescale: 1)
private func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 1_000_000_000) }

private func makeTimebase(_ clock: CMClock = .hostTimeClock) throws -> CMTimebase {
    var made: CMTimebase?
    #expect(CMTimebaseCreateWithSourceClock(allocator: nil, sourceClock: clock, timebaseOut: &made) == noErr)
    return try #require(made)
}

private func makeChild(of parent: CMTimebase) throws -> CMTimebase {
    var made: CMTimebase?
    #expect(CMTimebaseCreateWithSourceTimebase(allocator: nil, sourceTimebase: parent, timebaseOut: &made) == noErr)
    return try #require(made)
}

@Suite(.serialized) struct CMTimebaseTests {
    // MARK: Time and rate

    @Test func newTimebaseIsStoppedAtZero() throws {
        let timebase = try makeTimebase()
        #expect(CMTimebaseGetRate(timebase) == 0 && CMTimebaseGetEffectiveRate(timebase) == 0)
        #expect(CMTimebaseGetTime(timebase) == .zero)
        usleep(1_000)
        #expect(CMTimebaseGetTime(timebase) == .zero, "rate 0: the time does not move")
    }

    @Test func timeIsAnchorPlusRateTimesElapsedSourceTime() throws {
        let device = CMClock(name: "device", offsetFromHost: CMTime(value: 100, timescale: 1))
        let timebase = try makeTimebase(device)
        let anchor = CMClockGetTime(device)
        #expect(CMTimebaseSetRateAndAnchorTime(timebase, rate: 1.5, anchorTime: seconds(7), immediateSourceTime: anchor) == noErr)
        let before = CMClockGetTime(device)
        let time = CMTimebaseGetTime(timebase)
        let after = CMClockGetTime(device)
        #expect(time >= seconds(7) + CMTimeMultiplyByFloat64(before - anchor, multiplier: 1.5) - CMTime(value: 1, timescale: 1_000_000))
        #expect(time <= seconds(7) + CMTimeMultiplyByFloat64(after - anchor, multiplier: 1.5) + CMTime(value: 1, timescale: 1_000_000))
        var readTime = CMTime.invalid
        var readRate: Float64 = 0
        #expect(CMTimebaseGetTimeAndRate(timebase, timeOut: &readTime, rateOut: &readRate) == noErr)
        #expect(readRate == 1.5 && readTime >= time)
    }

    @Test func anchorInThePastOrFutureOfTheSource() throws {
        let timebase = try makeTimebase()
        let host = CMClockGetTime(.hostTimeClock)
        // Anchored 10 s of source time ago at time 0, rate -1: now about -10 s.
        #expect(CMTimebaseSetRateAndAnchorTime(timebase, rate: -1, anchorTime: .zero, immediateSourceTime: host - CMTime(value: 10, timescale: 1)) == noErr)
        let time = CMTimebaseGetTime(timebase).seconds
        #expect(time <= -10 && time > -11)
    }

    @Test func setTimeAtRateZeroIsExactAndSetRateKeepsTheTime() throws {
        let timebase = try makeTimebase()
        #expect(CMTimebaseSetTime(timebase, time: CMTime(value: 42, timescale: 600)) == noErr)
        #expect(CMTimebaseGetTime(timebase) == CMTime(value: 42, timescale: 600))
        #expect(CMTimebaseGetTimeWithTimeScale(timebase, timescale: 60, method: .default) == CMTime(value: 4, timescale: 60))
        let before = CMClockGetTime(.hostTimeClock)
        #expect(CMTimebaseSetRate(timebase, rate: 3) == noErr)
        let time = CMTimebaseGetTime(timebase)
        let elapsed = CMClockGetTime(.hostTimeClock) - before
        #expect(time >= CMTime(value: 42, timescale: 600), "setting the rate does not jump the time")
        #expect(time <= CMTime(value: 42, timescale: 600) + CMTimeMultiply(elapsed, multiplier: 3))
        #expect(CMTimebaseSetRate(timebase, rate: 0) == noErr)
        let stopped = CMTimebaseGetTime(timebase)
        #expect(CMTimebaseGetTime(timebase) == stopped)
    }

    @Test func setAnchorTimeKeepsTheRate() throws {
        let timebase = try makeTimebase()
        #expect(CMTimebaseSetRate(timebase, rate: 2) == noErr)
        let source = CMClockGetTime(.hostTimeClock)
        #expect(CMTimebaseSetAnchorTime(timebase, timebaseTime: seconds(5), immediateSourceTime: source) == noErr)
        #expect(CMTimebaseGetRate(timebase) == 2)
        let time = CMTimebaseGetTime(timebase)
        let elapsed = CMClockGetTime(.hostTimeClock) - source
        #expect(time >= seconds(5) && time <= seconds(5) + CMTimeMultiply(elapsed, multiplier: 2))
    }

    @Test func invalidArgumentsReturnTimebaseErrors() throws {
        let timebase = try makeTimebase()
        #expect(CMTimebaseSetRate(timebase, rate: .nan) == kCMTimebaseError_InvalidParameter)
        #expect(CMTimebaseSetRate(timebase, rate: .infinity) == kCMTimebaseError_InvalidParameter)
        #expect(CMTimebaseSetTime(timebase, time: .invalid) == kCMTimebaseError_InvalidParameter)
        #expect(CMTimebaseSetAnchorTime(timebase, timebaseTime: .zero, immediateSourceTime: .indefinite) == kCMTimebaseError_InvalidParameter)
        #expect(CMTimebaseGetRate(timebase) == 0 && CMTimebaseGetTime(timebase) == .zero, "a failed call changes nothing")
        let dead = CMClock(name: "dead", offsetFromHost: .zero)
        CMClockInvalidate(dead)
        var made: CMTimebase?
        #expect(CMTimebaseCreateWithSourceClock(allocator: nil, sourceClock: dead, timebaseOut: &made) == kCMTimebaseError_InvalidParameter)
        #expect(made == nil)
        #expect(throws: CMTimebase.Error.invalidParameter) { try CMTimebase(sourceClock: dead) }
        #expect(CMTimebaseSetSourceClock(timebase, dead) == kCMTimebaseError_InvalidParameter)
    }

    // MARK: Sources and chains

    @Test func chainsMultiplyRatesDownToTheUltimateClock() throws {
        let device = CMClock(name: "device", offsetFromHost: CMTime(value: 5, timescale: 1))
        let parent = try makeTimebase(device)
        let child = try makeChild(of: parent)
        #expect(CMTimebaseCopySourceTimebase(child) === parent && CMTimebaseCopySourceClock(child) == nil)
        #expect(CMTimebaseCopySource(child) === parent && CMTimebaseCopyUltimateSourceClock(child) === device)
        #expect(CMTimebaseSetRate(child, rate: 3) == noErr)
        #expect(CMTimebaseGetEffectiveRate(child) == 0, "a stopped source stops the chain")
        #expect(CMTimebaseSetRate(parent, rate: 0.5) == noErr)
        #expect(CMTimebaseGetEffectiveRate(child) == 1.5 && CMTimebaseGetRate(child) == 3)
        #expect(CMSyncGetRelativeRate(child, relativeTo: parent) == 3)
        #expect(CMSyncGetRelativeRate(child, relativeTo: device) == 1.5)
        // The child's time follows its source's: anchored at parent time p0 = child time 0.
        let parentNow = CMTimebaseGetTime(parent)
        #expect(CMTimebaseSetAnchorTime(child, timebaseTime: .zero, immediateSourceTime: parentNow) == noErr)
        let p1 = CMTimebaseGetTime(parent)
        let c = CMTimebaseGetTime(child)
        let p2 = CMTimebaseGetTime(parent)
        #expect(c >= CMTimeMultiply(p1 - parentNow, multiplier: 3) && c <= CMTimeMultiply(p2 - parentNow, multiplier: 3))
    }

    @Test func changingTheSourceKeepsTimeAndRate() throws {
        let parent = try makeTimebase()
        #expect(CMTimebaseSetTime(parent, time: CMTime(value: 1000, timescale: 1)) == noErr)
        let timebase = try makeTimebase()
        #expect(CMTimebaseSetTime(timebase, time: CMTime(value: 7, timescale: 1)) == noErr)
        #expect(CMTimebaseSetSourceTimebase(timebase, parent) == noErr)
        #expect(CMTimebaseGetTime(timebase) == CMTime(value: 7, timescale: 1) && CMTimebaseCopySourceTimebase(timebase) === parent)
        let device = CMClock(name: "device", offsetFromHost: CMTime(value: -3, timescale: 1))
        #expect(CMTimebaseSetSourceClock(timebase, device) == noErr)
        #expect(CMTimebaseGetTime(timebase) == CMTime(value: 7, timescale: 1) && CMTimebaseCopySourceClock(timebase) === device)
        // The overlay's settable source.
        timebase.source = parent
        #expect(timebase.sourceTimebase === parent && timebase.sourceClock == nil && timebase.ultimateSourceClock === CMClock.hostTimeClock)
    }

    @Test func changingToAStoppedSourcePostsEffectiveRateChanged() throws {
        let stoppedParent = try makeTimebase()
        let timebase = try makeTimebase()
        try timebase.setRate(1)
        try timebase.notificationBarrier()
        let recorder = NotificationRecorder(timebase)
        defer { recorder.stop() }
        #expect(CMTimebaseSetSourceTimebase(timebase, stoppedParent) == noErr)
        #expect(timebase.effectiveRate == 0 && timebase.rate == 1)
        #expect(CMTimebaseSetSourceClock(timebase, .hostTimeClock) == noErr)
        #expect(timebase.timeAndRate.rate == 1 && timebase.effectiveRate == 1)
        try timebase.notificationBarrier()
        #expect(recorder.names == [kCMTimebaseNotification_EffectiveRateChanged, kCMTimebaseNotification_EffectiveRateChanged])
    }

    @Test func sourceLoopsAreRefused() throws {
        let root = try makeTimebase()
        let child = try makeChild(of: root)
        let grandchild = try makeChild(of: child)
        #expect(CMTimebaseSetSourceTimebase(root, grandchild) == kCMTimebaseError_InvalidParameter)
        #expect(CMTimebaseSetSourceTimebase(root, root) == kCMTimebaseError_InvalidParameter)
        #expect(CMTimebaseCopySourceClock(root) === CMClock.hostTimeClock)
    }

    @Test func concurrentSourceChangesNeverMakeALoop() throws {
        // Two threads make A the source of B and B the source of A at once, many times: one
        // of each pair must be refused, so the chain always ends at the clock.
        for _ in 0..<200 {
            let a = try makeTimebase(), b = try makeTimebase()
            let results = Shared([OSStatus]())
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let status = index == 0 ? CMTimebaseSetSourceTimebase(a, b) : CMTimebaseSetSourceTimebase(b, a)
                results.update { $0.append(status) }
            }
            #expect(results.value.filter { $0 == noErr }.count == 1, "\(results.value)")
            #expect(CMTimebaseCopyUltimateSourceClock(a) === CMClock.hostTimeClock && CMTimebaseCopyUltimateSourceClock(b) === CMClock.hostTimeClock)
        }
    }

    // MARK: Notifications

    @Test func setTimePostsTimeJumpedWithTheEventTime() throws {
        let timebase = try makeTimebase()
        let recorder = NotificationRecorder(timebase)
        defer { recorder.stop() }
        #expect(CMTimebaseSetTime(timebase, time: CMTime(value: 9, timescale: 1)) == noErr)
        #expect(CMTimebaseNotificationBarrier(timebase) == noErr)
        #expect(recorder.names == [kCMTimebaseNotification_TimeJumped])
        #expect(recorder.eventTimes == [CMTime(value: 9, timescale: 1)])
    }

    @Test func setRatePostsEffectiveRateChangedOnlyWhenItChanges() throws {
        let timebase = try makeTimebase()
        let recorder = NotificationRecorder(timebase)
        defer { recorder.stop() }
        #expect(CMTimebaseSetRate(timebase, rate: 0) == noErr)
        try timebase.notificationBarrier()
        #expect(recorder.names.isEmpty, "the same rate: no change, no notification")
        #expect(CMTimebaseSetRate(timebase, rate: 1) == noErr)
        try timebase.notificationBarrier()
        #expect(recorder.names == [kCMTimebaseNotification_EffectiveRateChanged], "no TimeJumped for a rate change")
        #expect(CMTimebaseSetRateAndAnchorTime(timebase, rate: 2, anchorTime: .zero, immediateSourceTime: CMClockGetTime(.hostTimeClock)) == noErr)
        try timebase.notificationBarrier()
        #expect(recorder.names == [
            kCMTimebaseNotification_EffectiveRateChanged, kCMTimebaseNotification_TimeJumped,
            kCMTimebaseNotification_EffectiveRateChanged,
        ])
        #expect(recorder.eventTimes.last == .zero)
    }

    @Test func sourceChangesReachTheTimebasesThatRunFromIt() throws {
        let parent = try makeTimebase()
        let running = try makeChild(of: parent)
        let stopped = try makeChild(of: parent)
        #expect(CMTimebaseSetRate(running, rate: 2) == noErr)
        let runningRecorder = NotificationRecorder(running)
        let stoppedRecorder = NotificationRecorder(stopped)
        defer { runningRecorder.stop(); stoppedRecorder.stop() }
        #expect(CMTimebaseSetRate(parent, rate: 1) == noErr)
        #expect(CMTimebaseGetEffectiveRate(running) == 2)
        #expect(CMTimebaseSetTime(parent, time: CMTime(value: 50, timescale: 1)) == noErr)
        try running.notificationBarrier()
        try stopped.notificationBarrier()
        #expect(runningRecorder.names == [kCMTimebaseNotification_EffectiveRateChanged, kCMTimebaseNotification_TimeJumped])
        #expect(stoppedRecorder.names.isEmpty, "a stopped timebase neither changes rate nor jumps")
    }

    @Test func observersMayCallBackIntoTheTimebase() throws {
        let timebase = try makeTimebase()
        let reads = Shared<[CMTime]>([])
        let recorder = NotificationRecorder(timebase) {
            // No lock is held while observers run: reading and the barrier both work.
            CMTimebaseNotificationBarrier(timebase)
            reads.update { $0.append(CMTimebaseGetTime(timebase)) }
        }
        defer { recorder.stop() }
        #expect(CMTimebaseSetTime(timebase, time: second) == noErr)
        try timebase.notificationBarrier()
        #expect(reads.value == [second])
    }

    // MARK: CMSync

    @Test func syncFunctionsTakeTimebases() throws {
        let device = CMClock(name: "device", offsetFromHost: CMTime(value: 20, timescale: 1))
        let timebase = try makeTimebase(device)
        let anchor = CMClockGetTime(device)
        #expect(CMTimebaseSetRateAndAnchorTime(timebase, rate: 2, anchorTime: seconds(100), immediateSourceTime: anchor) == noErr)
        // Converting: timebase time 110 is device time anchor + 5 s, host time 20 s earlier.
        let hostTime = CMSyncConvertTime(seconds(110), from: timebase, to: CMClock.hostTimeClock)
        #expect(hostTime == anchor + seconds(5) - CMTime(value: 20, timescale: 1))
        #expect(CMSyncConvertTime(hostTime, from: CMClock.hostTimeClock, to: timebase) == seconds(110))
        #expect(timebase.convertTime(seconds(110), to: device) == anchor + seconds(5))
        #expect(CMSyncGetTime(timebase) >= seconds(100))
        #expect(CMSyncGetRelativeRate(timebase, relativeTo: device) == 2 && CMSyncGetRelativeRate(device, relativeTo: timebase) == 0.5)
        #expect(timebase.rate(relativeTo: CMClock.hostTimeClock) == 2 && !CMSyncMightDrift(timebase, device))
        var rate: Float64 = 0
        var timebaseAnchor = CMTime.invalid
        var deviceAnchor = CMTime.invalid
        #expect(CMSyncGetRelativeRateAndAnchorTime(
            timebase, relativeTo: device, outRelativeRate: &rate, outOfClockOrTimebaseAnchorTime: &timebaseAnchor,
            outRelativeToClockOrTimebaseAnchorTime: &deviceAnchor) == noErr)
        #expect(rate == 2 && timebaseAnchor == seconds(100) + CMTimeMultiply(deviceAnchor - anchor, multiplier: 2))
        let both = try timebase.rateAndAnchorTime(relativeTo: device)
        #expect(both.rate == 2 && both.anchorTime == seconds(100) + CMTimeMultiply(both.referenceTime - anchor, multiplier: 2))
    }

    @Test func stoppedTimebasesInCMSync() throws {
        let stopped = try makeTimebase()
        let moving = try makeTimebase()
        #expect(CMTimebaseSetRate(moving, rate: 1) == noErr)
        #expect(CMSyncGetRelativeRate(moving, relativeTo: stopped).isNaN, "moving relative to stopped is NaN")
        #expect(CMSyncGetRelativeRate(stopped, relativeTo: moving) == 0)
        #expect(!CMSyncConvertTime(second, from: stopped, to: CMClock.hostTimeClock).isValid, "no host time maps to one time of a stopped timebase")
        #expect(CMSyncConvertTime(second, from: CMClock.hostTimeClock, to: stopped) == .zero)
        #expect(!CMSyncGetTime(NSObject()).isValid)
        #expect(CMSyncGetRelativeRateAndAnchorTime(
            moving, relativeTo: NSObject(), outRelativeRate: nil, outOfClockOrTimebaseAnchorTime: nil,
            outRelativeToClockOrTimebaseAnchorTime: nil) == kCMSyncError_InvalidParameter)
    }

    // MARK: Timers

    @Test func dispatchTimerFiresAtItsTimebaseTime() throws {
        let timebase = try makeTimebase()
        let recorder = FireRecorder()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { recorder.record(CMTimebaseGetTime(timebase)) }
        timer.resume()
        defer { timer.cancel() }
        #expect(CMTimebaseAddTimerDispatchSource(timebase, timerSource: timer) == noErr)
        #expect(CMTimebaseSetRate(timebase, rate: 2) == noErr)
        let fireTime = CMTimebaseGetTime(timebase) + seconds(0.3)
        #expect(CMTimebaseSetTimerDispatchSourceNextFireTime(timebase, timerSource: timer, fireTime: fireTime, flags: 0) == noErr)
        #expect(recorder.fired.wait(timeout: .now() + 10) == .success)
        let firedAt = try #require(recorder.fireTimes.first)
        #expect(firedAt >= fireTime - slack && firedAt < fireTime + late)
        // Fired for its fire time: a later change does not arm it again.
        try timebase.setTime(.zero)
        #expect(timebase.state.withLock { $0.timers.map { $0.fireTime.isValid || $0.deadline != nil } } == [false])
    }

    @Test func cancelledTimersAreDropped() throws {
        let timebase = try makeTimebase()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler {}
        timer.resume()
        try timebase.addTimer(timer)
        timer.cancel()
        try timebase.setRate(1)
        #expect(timebase.state.withLock { $0.timers.isEmpty })
    }

    @Test func stoppedTimebaseParksTimersUntilItRuns() throws {
        let timebase = try makeTimebase()
        let recorder = FireRecorder()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { recorder.record(CMTimebaseGetTime(timebase)) }
        timer.resume()
        defer { timer.cancel() }
        try timebase.addTimer(timer)
        let fireTime = seconds(0.2)
        try timebase.setTimerNextFireTime(timer, fireTime: fireTime)
        #expect(timebase.state.withLock { $0.timers.map(\.deadline) } == [nil], "rate 0: never")
        try timebase.setRate(1)
        #expect(timebase.state.withLock { $0.timers.allSatisfy { $0.deadline != nil } }, "rescheduled when the rate changes")
        #expect(recorder.fired.wait(timeout: .now() + 10) == .success)
        let firedAt = try #require(recorder.fireTimes.first)
        #expect(firedAt >= fireTime - slack && firedAt < fireTime + late)
    }

    @Test func timeJumpReschedulesTimers() throws {
        let timebase = try makeTimebase()
        let recorder = FireRecorder()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { recorder.record(CMTimebaseGetTime(timebase)) }
        timer.resume()
        defer { timer.cancel() }
        try timebase.addTimer(timer)
        try timebase.setRate(1)
        let fireTime = CMTime(value: 3600, timescale: 1)
        try timebase.setTimerNextFireTime(timer, fireTime: fireTime)
        try timebase.setTime(fireTime - seconds(0.1))
        #expect(recorder.fired.wait(timeout: .now() + 10) == .success)
        let firedAt = try #require(recorder.fireTimes.first)
        #expect(firedAt >= fireTime - slack && firedAt < fireTime + late)
    }

    @Test func fireImmediatelyAndRemove() throws {
        let timebase = try makeTimebase()
        let recorder = FireRecorder()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { recorder.record(CMTimebaseGetTime(timebase)) }
        timer.resume()
        defer { timer.cancel() }
        let stranger = DispatchSource.makeTimerSource(queue: .global())
        stranger.resume()
        defer { stranger.cancel() }
        #expect(CMTimebaseSetTimerDispatchSourceToFireImmediately(timebase, timerSource: stranger) == kCMTimebaseError_InvalidParameter)
        #expect(CMTimebaseAddTimerDispatchSource(timebase, timerSource: timer) == noErr)
        #expect(CMTimebaseAddTimerDispatchSource(timebase, timerSource: timer) == noErr, "adding twice keeps one entry")
        #expect(timebase.state.withLock { $0.timers.count } == 1)
        #expect(CMTimebaseSetTimerDispatchSourceToFireImmediately(timebase, timerSource: timer) == noErr)
        #expect(recorder.fired.wait(timeout: .now() + 10) == .success)
        #expect(CMTimebaseRemoveTimerDispatchSource(timebase, timerSource: timer) == noErr)
        #expect(timebase.state.withLock { $0.timers.isEmpty })
        #expect(CMTimebaseSetTimerDispatchSourceNextFireTime(timebase, timerSource: timer, fireTime: .zero, flags: 0) == kCMTimebaseError_InvalidParameter)
    }

    @Test func runLoopTimerFiresAtItsTimebaseTime() throws {
        let timebase = try makeTimebase()
        #expect(CMTimebaseSetRate(timebase, rate: 0.5) == noErr)
        let recorder = FireRecorder()
        let fireTime = CMTimebaseGetTime(timebase) + seconds(0.1)
        let statuses = Shared<[OSStatus]>([])
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            let short = Timer(timeInterval: 1, repeats: true) { _ in }
            let timer = Timer(timeInterval: kCMTimebaseVeryLongCFTimeInterval, repeats: true) { _ in
                recorder.record(CMTimebaseGetTime(timebase))
            }
            RunLoop.current.add(timer, forMode: .default)
            statuses.update {
                $0.append(CMTimebaseAddTimer(timebase, timer: short, runloop: .current))
                $0.append(CMTimebaseAddTimer(timebase, timer: timer, runloop: .current))
                $0.append(CMTimebaseSetTimerNextFireTime(timebase, timer: timer, fireTime: fireTime, flags: 0))
            }
            let deadline = Date(timeIntervalSinceNow: 10)
            while recorder.fireTimes.isEmpty, Date() < deadline {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
            timer.invalidate()
            finished.signal()
        }
        thread.start()
        finished.wait()
        #expect(statuses.value == [kCMTimebaseError_TimerIntervalTooShort, noErr, noErr])
        let firedAt = try #require(recorder.fireTimes.first)
        #expect(firedAt >= fireTime - slack && firedAt < fireTime + late)
    }

    @Test func concurrentChangesAndReads() async throws {
        let parent = try makeTimebase()
        let child = try makeChild(of: parent)
        try child.setRate(1)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for step in 0..<500 {
                        if task == 0 { CMTimebaseSetRate(parent, rate: Double(step % 3)) }
                        if task == 1 { CMTimebaseSetTime(child, time: CMTime(value: Int64(step), timescale: 1)) }
                        _ = (CMTimebaseGetTime(child), CMTimebaseGetEffectiveRate(child))
                    }
                }
            }
        }
        try parent.setRate(2)
        #expect(child.effectiveRate == 2)
    }
}
