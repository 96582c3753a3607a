import Foundation
import Synchronization

/// A timeline under application control (CMTimebase.h): its time runs at `rate` relative to
/// its source, a clock or another timebase.
///
/// The time is `anchorTime + rate × (sourceTime − sourceAnchorTime)`. Every clock here is the
/// host clock plus a fixed offset (see `CMClock`), so a chain of timebases ends at the host
/// clock and its effective rate (the product of the rates down the chain) is also its rate
/// relative to host time.
///
/// A new timebase has rate 0 and time 0. Setting its time posts
/// `kCMTimebaseNotification_TimeJumped`; a change of effective rate (its own rate, or a
/// source timebase's) posts `kCMTimebaseNotification_EffectiveRateChanged`. Notifications go
/// through `NotificationCenter.default` with the timebase as object, from a serial queue of
/// the timebase's (`CMTimebaseNotificationBarrier` waits for it). Timers added to a timebase
/// fire at times of its timeline and are rescheduled when its time jumps or its effective
/// rate changes; a stopped timebase never fires them.
///
/// Thread-safe: the state is behind a lock that is never held while user code runs.
public final class CMTimebase: Sendable {
    /// The source a timebase runs from.
    enum Source: Sendable {
        case clock(CMClock)
        case timebase(CMTimebase)

        /// The source as `CMClockOrTimebase`.
        var object: CMClockOrTimebase {
            switch self {
            case .clock(let clock): clock
            case .timebase(let timebase): timebase
            }
        }

        /// The source's time at a host time.
        func time(atHostTime hostTime: CMTime) -> CMTime {
            switch self {
            case .clock(let clock): CMTimeAdd(hostTime, clock.offsetFromHost)
            case .timebase(let timebase): timebase.time(atHostTime: hostTime)
            }
        }

        /// The host time at which the source reads `time` (invalid when it is stopped).
        func hostTime(forTime time: CMTime) -> CMTime {
            switch self {
            case .clock(let clock): CMTimeSubtract(time, clock.offsetFromHost)
            case .timebase(let timebase): timebase.hostTime(forTime: time)
            }
        }

        /// The source's rate relative to host time.
        var effectiveRate: Float64 {
            switch self {
            case .clock: 1
            case .timebase(let timebase): timebase._effectiveRate
            }
        }

        /// The clock at the end of the chain.
        var ultimateClock: CMClock {
            switch self {
            case .clock(let clock): clock
            case .timebase(let timebase): timebase._source.ultimateClock
            }
        }
    }

    /// A rate and the pair of times (this timeline's, the source's) it runs from.
    struct Anchor: Sendable {
        var rate: Float64
        var time: CMTime
        var sourceTime: CMTime

        /// This timeline's time when the source reads `sourceTime`.
        func timebaseTime(forSourceTime now: CMTime) -> CMTime {
            if rate == 0 { return time }
            guard now.isNumeric, time.isNumeric, sourceTime.isNumeric else { return .invalid }
            let elapsed = CMTimeSubtract(now, sourceTime)
            return CMTimeAdd(time, rate == 1 ? elapsed : CMTimeMultiplyByFloat64(elapsed, multiplier: rate))
        }

        /// The source's time when this timeline reads `timebaseTime` (invalid at rate 0).
        func sourceTime(forTimebaseTime timebaseTime: CMTime) -> CMTime {
            guard rate != 0, timebaseTime.isNumeric, time.isNumeric, sourceTime.isNumeric else { return .invalid }
            let elapsed = CMTimeSubtract(timebaseTime, time)
            return CMTimeAdd(sourceTime, rate == 1 ? elapsed : CMTimeMultiplyByFloat64(elapsed, multiplier: 1 / rate))
        }
    }

    /// A timebase that runs from this one, held weakly.
    struct WeakTimebase {
        weak var value: CMTimebase?
    }

    struct State {
        var source: Source
        var anchor: Anchor
        var timers: [_CMTimebaseTimer] = []
        var dependents: [WeakTimebase] = []
    }

    let state: Mutex<State>
    /// The serial queue notifications are posted from.
    let notificationQueue = DispatchQueue(label: "CMTimebase.notifications")
    /// The thread posting this timebase's notifications, while one is.
    let postingThread = Mutex<pthread_t?>(nil)

    /// Creates a timebase with rate 0 and time 0 running from `source`.
    init(source: Source) {
        let now = source.time(atHostTime: CMClock.currentHostTime())
        state = Mutex(State(source: source, anchor: Anchor(rate: 0, time: .zero, sourceTime: now)))
        if case .timebase(let parent) = source { parent.addDependent(self) }
    }

    // MARK: Reading

    /// The current source.
    var _source: Source { state.withLock { $0.source } }

    /// This timeline's time at a host time.
    func time(atHostTime hostTime: CMTime) -> CMTime {
        let (source, anchor) = state.withLock { ($0.source, $0.anchor) }
        return anchor.timebaseTime(forSourceTime: source.time(atHostTime: hostTime))
    }

    /// The host time at which this timeline reads `time` (invalid when it is stopped).
    func hostTime(forTime time: CMTime) -> CMTime {
        let (source, anchor) = state.withLock { ($0.source, $0.anchor) }
        let sourceTime = anchor.sourceTime(forTimebaseTime: time)
        return sourceTime.isNumeric ? source.hostTime(forTime: sourceTime) : .invalid
    }

    /// The time and rate read together.
    var _timeAndRate: (time: CMTime, rate: Float64) {
        let hostTime = CMClock.currentHostTime()
        let (source, anchor) = state.withLock { ($0.source, $0.anchor) }
        return (anchor.timebaseTime(forSourceTime: source.time(atHostTime: hostTime)), anchor.rate)
    }

    /// The rate relative to the ultimate clock (and so to host time).
    var _effectiveRate: Float64 {
        let (source, rate) = state.withLock { ($0.source, $0.anchor.rate) }
        return rate == 0 ? 0 : rate * source.effectiveRate
    }

    /// Whether `timebase` is this one or one of its sources.
    func isSelfOrSource(_ timebase: CMTimebase) -> Bool {
        var current: CMTimebase? = self
        while let node = current {
            if node === timebase { return true }
            if case .timebase(let parent) = node._source { current = parent } else { current = nil }
        }
        return false
    }

    // MARK: Changing

    /// Sets the rate and anchor; nil keeps the rate, or anchors at the current times.
    /// Posts TimeJumped when `timeJumped`, EffectiveRateChanged when the effective rate
    /// changes, and passes both on to the timebases that run from this one.
    func change(rate newRate: Float64?, time newTime: CMTime?, sourceTime newSourceTime: CMTime?, timeJumped: Bool) -> OSStatus {
        if let newRate, !newRate.isFinite { return kCMTimebaseError_InvalidParameter }
        if let newTime, !newTime.isNumeric { return kCMTimebaseError_InvalidParameter }
        if let newSourceTime, !newSourceTime.isNumeric { return kCMTimebaseError_InvalidParameter }
        let before = _effectiveRate
        let hostTime = CMClock.currentHostTime()
        let eventTime: CMTime? = state.withLock { state in
            let sourceNow = state.source.time(atHostTime: hostTime)
            guard sourceNow.isNumeric || newSourceTime != nil else { return nil }
            let current = state.anchor.timebaseTime(forSourceTime: sourceNow)
            state.anchor = Anchor(
                rate: newRate ?? state.anchor.rate, time: newTime ?? (current.isNumeric ? current : state.anchor.time),
                sourceTime: newSourceTime ?? sourceNow)
            // A jump happens at the time jumped to; a rate change at the current time.
            return newTime ?? state.anchor.timebaseTime(forSourceTime: sourceNow)
        }
        guard let eventTime else { return kCMTimebaseError_InvalidParameter }
        didChange(timeJumped: timeJumped, effectiveRateBefore: before, eventTime: eventTime)
        return noErr
    }

    /// Serialises source changes: the loop check and the swap must be one step, or two
    /// threads setting A's source to B and B's to A could both pass the check and make a
    /// loop (every later time read would recurse without end). Taken before any timebase's
    /// own lock, and never while calling out.
    private static let sourceChange = NSLock()

    /// Makes `newSource` the source, keeping the current time and rate.
    func setSource(_ newSource: Source) -> OSStatus {
        if case .clock(let clock) = newSource, !clock.isValid { return kCMTimebaseError_InvalidParameter }
        Self.sourceChange.lock()
        if case .timebase(let timebase) = newSource, timebase.isSelfOrSource(self) {
            Self.sourceChange.unlock()
            return kCMTimebaseError_InvalidParameter
        }
        let before = _effectiveRate
        let hostTime = CMClock.currentHostTime()
        let (oldSource, eventTime) = state.withLock { state in
            let current = state.anchor.timebaseTime(forSourceTime: state.source.time(atHostTime: hostTime))
            let oldSource = state.source
            state.source = newSource
            state.anchor = Anchor(
                rate: state.anchor.rate, time: current.isNumeric ? current : state.anchor.time,
                sourceTime: newSource.time(atHostTime: hostTime))
            return (oldSource, state.anchor.time)
        }
        Self.sourceChange.unlock()
        if case .timebase(let parent) = oldSource { parent.removeDependent(self) }
        if case .timebase(let parent) = newSource { parent.addDependent(self) }
        didChange(timeJumped: false, effectiveRateBefore: before, eventTime: eventTime)
        return noErr
    }

    /// Reschedules timers, posts notifications and tells dependents, after a change.
    private func didChange(timeJumped: Bool, effectiveRateBefore before: Float64, eventTime: CMTime) {
        let after = _effectiveRate
        rescheduleTimers()
        let rateChanged = !Self.same(before, after)
        if timeJumped { post(kCMTimebaseNotification_TimeJumped, eventTime: eventTime) }
        if rateChanged { post(kCMTimebaseNotification_EffectiveRateChanged, eventTime: eventTime) }
        guard timeJumped || rateChanged else { return }
        for dependent in dependents {
            dependent.sourceDidChange(timeJumped: timeJumped, sourceRateBefore: before, sourceRateAfter: after)
        }
    }

    /// Follows a change of the source timebase: its time jumped, or its effective rate went
    /// from `sourceRateBefore` to `sourceRateAfter`.
    private func sourceDidChange(timeJumped sourceJumped: Bool, sourceRateBefore: Float64, sourceRateAfter: Float64) {
        let rate = state.withLock { $0.anchor.rate }
        let before = rate == 0 ? 0 : rate * sourceRateBefore
        let after = rate == 0 ? 0 : rate * sourceRateAfter
        let timeJumped = sourceJumped && rate != 0
        let rateChanged = !Self.same(before, after)
        guard timeJumped || rateChanged else { return }
        rescheduleTimers()
        let eventTime = time(atHostTime: CMClock.currentHostTime())
        if timeJumped { post(kCMTimebaseNotification_TimeJumped, eventTime: eventTime) }
        if rateChanged { post(kCMTimebaseNotification_EffectiveRateChanged, eventTime: eventTime) }
        for dependent in dependents {
            dependent.sourceDidChange(timeJumped: timeJumped, sourceRateBefore: before, sourceRateAfter: after)
        }
    }

    private static func same(_ a: Float64, _ b: Float64) -> Bool { a == b || (a.isNaN && b.isNaN) }

    // MARK: Dependents

    private var dependents: [CMTimebase] {
        state.withLock { state in
            state.dependents.removeAll { $0.value == nil }
            return state.dependents.compactMap(\.value)
        }
    }

    private func addDependent(_ timebase: CMTimebase) {
        state.withLock { $0.dependents.append(WeakTimebase(value: timebase)) }
    }

    private func removeDependent(_ timebase: CMTimebase) {
        state.withLock { $0.dependents.removeAll { $0.value == nil || $0.value === timebase } }
    }

    // MARK: Notifications

    /// Posts `name` with the timebase as object and the event time (as a CMTime dictionary)
    /// under `kCMTimebaseNotificationKey_EventTime`, from the notification queue.
    private func post(_ name: String, eventTime: CMTime) {
        notificationQueue.async {
            self.postingThread.withLock { $0 = pthread_self() }
            NotificationCenter.default.post(
                name: NSNotification.Name(name), object: self,
                userInfo: [kCMTimebaseNotificationKey_EventTime: CMTimeCopyAsDictionary(eventTime, allocator: nil) as Any])
            self.postingThread.withLock { $0 = nil }
        }
    }

    /// Waits until the notifications already requested have been posted (at once when
    /// called from an observer of this timebase).
    func waitForNotifications() {
        let posting = postingThread.withLock { $0 }
        if let posting, pthread_equal(posting, pthread_self()) != 0 { return }
        notificationQueue.sync {}
    }
}
