import Foundation

/// A timer a timebase manages: a run-loop `Timer` (CFRunLoopTimer on Apple platforms) or a
/// dispatch timer source, and the time of the timebase's timeline it should fire at.
///
/// The mutable fields are guarded by the owning timebase's state lock. A timer fires once
/// for each fire time set: once the host deadline it was given has passed, the timebase
/// leaves it alone until a new fire time is set.
final class _CMTimebaseTimer: @unchecked Sendable {
    enum Target {
        case runLoop(Timer, RunLoop)
        case dispatch(any DispatchSourceTimer)
    }

    let target: Target
    /// The timebase time to fire at; invalid for none.
    var fireTime = CMTime.invalid
    /// The host deadline last given to the timer; nil when it was set never to fire.
    var deadline: DispatchTime?

    init(_ target: Target) { self.target = target }

    /// Whether this entry is for `object` (a `Timer` or a dispatch source).
    func isFor(_ object: AnyObject) -> Bool {
        switch target {
        case .runLoop(let timer, _): timer === object
        case .dispatch(let source): (source as AnyObject) === object
        }
    }

    /// Whether the timer was invalidated or cancelled (the timebase then drops it).
    var isDefunct: Bool {
        switch target {
        case .runLoop(let timer, _): !timer.isValid
        case .dispatch(let source): source.isCancelled
        }
    }

    /// Sets when the timer fires next: at `deadline`, or never (far in the future) for nil.
    func schedule(at deadline: DispatchTime?) {
        self.deadline = deadline
        switch target {
        case .runLoop(let timer, _):
            if let deadline {
                let nanoseconds = Int64(bitPattern: deadline.uptimeNanoseconds &- DispatchTime.now().uptimeNanoseconds)
                timer.fireDate = Date(timeIntervalSinceNow: max(0, Double(nanoseconds) / 1e9))
            } else {
                timer.fireDate = Date(timeIntervalSinceReferenceDate: kCMTimebaseFarFutureCFAbsoluteTime)
            }
        case .dispatch(let source):
            source.schedule(deadline: deadline ?? .distantFuture, repeating: .never, leeway: .nanoseconds(0))
        }
    }

    /// The host deadline at which a timeline reading `current` and moving at `rate` relative
    /// to host time reaches `fireTime` (now if it already has); nil for never.
    static func deadline(for fireTime: CMTime, current: CMTime, rate: Float64, now: DispatchTime) -> DispatchTime? {
        guard fireTime.isNumeric, current.isNumeric, rate != 0, rate.isFinite else { return nil }
        let seconds = CMTimeSubtract(fireTime, current).seconds / rate
        guard seconds.isFinite, seconds < kCMTimebaseVeryLongCFTimeInterval else { return nil }
        return seconds <= 0 ? now : now + seconds
    }
}

extension CMTimebase {
    /// Adds a timer (no-op if already added), set never to fire until a fire time is set.
    func addTimer(_ target: _CMTimebaseTimer.Target, object: AnyObject) -> OSStatus {
        if case .runLoop(let timer, _) = target, timer.timeInterval < kCMTimebaseVeryLongCFTimeInterval {
            return kCMTimebaseError_TimerIntervalTooShort
        }
        state.withLock { state in
            state.timers.removeAll { $0.isDefunct }
            guard !state.timers.contains(where: { $0.isFor(object) }) else { return }
            let entry = _CMTimebaseTimer(target)
            entry.schedule(at: nil)
            state.timers.append(entry)
        }
        return noErr
    }

    /// Stops managing a timer; the timer keeps its last schedule.
    func removeTimer(_ object: AnyObject) -> OSStatus {
        state.withLock { $0.timers.removeAll { $0.isFor(object) || $0.isDefunct } }
        return noErr
    }

    /// Sets the timebase time at which a managed timer fires next (never for a non-numeric
    /// time or a stopped timebase). `kCMTimebaseError_InvalidParameter` for a timer the
    /// timebase does not manage.
    func setTimerNextFireTime(_ object: AnyObject, fireTime: CMTime) -> OSStatus {
        let hostTime = CMClock.currentHostTime()
        let rate = _effectiveRate
        return state.withLock { state in
            guard let entry = state.timers.first(where: { $0.isFor(object) }) else {
                return kCMTimebaseError_InvalidParameter
            }
            let current = state.anchor.timebaseTime(forSourceTime: state.source.time(atHostTime: hostTime))
            entry.fireTime = fireTime
            entry.schedule(at: _CMTimebaseTimer.deadline(for: fireTime, current: current, rate: rate, now: .now()))
            return noErr
        }
    }

    /// Makes a managed timer fire now, once, replacing its fire time.
    func setTimerToFireImmediately(_ object: AnyObject) -> OSStatus {
        state.withLock { state in
            guard let entry = state.timers.first(where: { $0.isFor(object) }) else {
                return kCMTimebaseError_InvalidParameter
            }
            entry.fireTime = .invalid
            entry.schedule(at: .now())
            return noErr
        }
    }

    /// Recomputes the host deadlines of the timers still waiting for their fire time, after
    /// the time jumped or the effective rate changed.
    func rescheduleTimers() {
        let hostTime = CMClock.currentHostTime()
        let rate = _effectiveRate
        state.withLock { state in
            state.timers.removeAll { $0.isDefunct }
            guard !state.timers.isEmpty else { return }
            let now = DispatchTime.now()
            let current = state.anchor.timebaseTime(forSourceTime: state.source.time(atHostTime: hostTime))
            for entry in state.timers {
                if let deadline = entry.deadline, deadline <= now {
                    // It fired (or is firing) for its fire time: wait for the next one.
                    entry.fireTime = .invalid
                    entry.deadline = nil
                    continue
                }
                guard entry.fireTime.isNumeric else { continue }
                entry.schedule(at: _CMTimebaseTimer.deadline(for: entry.fireTime, current: current, rate: rate, now: now))
            }
        }
    }
}
