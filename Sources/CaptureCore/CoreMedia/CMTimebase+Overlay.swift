import Foundation

// The Swift overlay's CMTimebase members (CoreMedia.swiftinterface, iOS 13 and 15). The
// throwing members throw the `CMTimebase.Error` NSError of the C function's status.

extension CMTimebase {
    /// The timebase errors as `NSOSStatusErrorDomain` errors.
    public struct Error {
        /// `kCMTimebaseError_MissingRequiredParameter`.
        public static let missingRequiredParameter = CMTimebase.error(kCMTimebaseError_MissingRequiredParameter)
        /// `kCMTimebaseError_InvalidParameter`.
        public static let invalidParameter = CMTimebase.error(kCMTimebaseError_InvalidParameter)
        /// `kCMTimebaseError_AllocationFailed`.
        public static let allocationFailed = CMTimebase.error(kCMTimebaseError_AllocationFailed)
        /// `kCMTimebaseError_TimerIntervalTooShort`.
        public static let timerIntervalTooShort = CMTimebase.error(kCMTimebaseError_TimerIntervalTooShort)
        /// `kCMTimebaseError_ReadOnly`.
        public static let readOnly = CMTimebase.error(kCMTimebaseError_ReadOnly)
    }

    /// Keys of the timebase notifications' user info.
    public struct NotificationKey: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The time at which the rate change or jump occurred (`kCMTimebaseNotificationKey_EventTime`).
        public static let eventTime = NotificationKey(rawValue: kCMTimebaseNotificationKey_EventTime)
    }

    /// Posted after the effective rate changes (`kCMTimebaseNotification_EffectiveRateChanged`).
    public static let effectiveRateChanged = NSNotification.Name(kCMTimebaseNotification_EffectiveRateChanged)

    /// Posted after a discontinuous time jump (`kCMTimebaseNotification_TimeJumped`).
    public static let timeJumped = NSNotification.Name(kCMTimebaseNotification_TimeJumped)

    /// A time far in the future (`kCMTimebaseFarFutureCFAbsoluteTime`).
    public static let farFuture: Double = kCMTimebaseFarFutureCFAbsoluteTime

    /// A very long time interval (`kCMTimebaseVeryLongCFTimeInterval`, 256 years).
    public static let veryLongTimeInterval: Double = kCMTimebaseVeryLongCFTimeInterval

    static func error(_ status: OSStatus) -> NSError { NSError(domain: "NSOSStatusErrorDomain", code: Int(status)) }

    private static func check(_ status: OSStatus) throws {
        guard status == noErr else { throw error(status) }
    }

    /// Creates a timebase with rate 0 and time 0 driven by `sourceClock`
    /// (`CMTimebaseCreateWithSourceClock`).
    public convenience init(sourceClock: CMClock) throws {
        guard sourceClock.isValid else { throw CMTimebase.Error.invalidParameter }
        self.init(source: .clock(sourceClock))
    }

    /// Creates a timebase with rate 0 and time 0 driven by `sourceTimebase`
    /// (`CMTimebaseCreateWithSourceTimebase`).
    public convenience init(sourceTimebase: CMTimebase) throws {
        self.init(source: .timebase(sourceTimebase))
    }

    /// The current time (`CMTimebaseGetTime`).
    public var time: CMTime { CMTimebaseGetTime(self) }

    /// The rate relative to the immediate source (`CMTimebaseGetRate`).
    public var rate: Double { CMTimebaseGetRate(self) }

    /// The current time and rate, read together (`CMTimebaseGetTimeAndRate`).
    public var timeAndRate: (time: CMTime, rate: Double) { _timeAndRate }

    /// The rate relative to the ultimate source clock (`CMTimebaseGetEffectiveRate`).
    public var effectiveRate: Double { _effectiveRate }

    /// The immediate source, a `CMClock` or a `CMTimebase`; setting it keeps the current
    /// time and rate (`CMTimebaseSetSourceClock`, `CMTimebaseSetSourceTimebase`). A source
    /// that is neither, or one that would make a loop, is ignored.
    public var source: any CMSyncProtocol {
        get {
            switch _source {
            case .clock(let clock): clock
            case .timebase(let timebase): timebase
            }
        }
        set {
            if let clock = newValue as? CMClock {
                _ = setSource(.clock(clock))
            } else if let timebase = newValue as? CMTimebase {
                _ = setSource(.timebase(timebase))
            }
        }
    }

    /// The immediate source clock, if the source is a clock (`CMTimebaseCopySourceClock`).
    public var sourceClock: CMClock? { CMTimebaseCopySourceClock(self) }

    /// The immediate source timebase, if the source is a timebase (`CMTimebaseCopySourceTimebase`).
    public var sourceTimebase: CMTimebase? { CMTimebaseCopySourceTimebase(self) }

    /// The clock at the end of the chain of sources (`CMTimebaseCopyUltimateSourceClock`).
    public var ultimateSourceClock: CMClock { CMTimebaseCopyUltimateSourceClock(self) }

    /// Sets the current time (`CMTimebaseSetTime`).
    public func setTime(_ time: CMTime) throws { try Self.check(CMTimebaseSetTime(self, time: time)) }

    /// Sets the time at a particular source time (`CMTimebaseSetAnchorTime`).
    public func setAnchorTime(_ anchorTime: CMTime, referenceTime: CMTime) throws {
        try Self.check(CMTimebaseSetAnchorTime(self, timebaseTime: anchorTime, immediateSourceTime: referenceTime))
    }

    /// Sets the rate (`CMTimebaseSetRate`).
    public func setRate(_ rate: Double) throws { try Self.check(CMTimebaseSetRate(self, rate: rate)) }

    /// Sets the time at a particular source time and the rate from then
    /// (`CMTimebaseSetRateAndAnchorTime`).
    public func setRateAndAnchorTime(rate: Double, anchorTime: CMTime, referenceTime: CMTime) throws {
        try Self.check(CMTimebaseSetRateAndAnchorTime(self, rate: rate, anchorTime: anchorTime, immediateSourceTime: referenceTime))
    }

    /// Adds a run-loop timer (`CMTimebaseAddTimer`).
    public func addTimer(_ timer: Timer, on runloop: RunLoop) throws {
        try Self.check(CMTimebaseAddTimer(self, timer: timer, runloop: runloop))
    }

    /// Adds a dispatch timer source (`CMTimebaseAddTimerDispatchSource`).
    public func addTimer<T: DispatchSourceTimer>(_ timer: T) throws {
        try Self.check(CMTimebaseAddTimerDispatchSource(self, timerSource: timer))
    }

    /// Stops managing a run-loop timer (`CMTimebaseRemoveTimer`).
    public func removeTimer(_ timer: Timer) throws { try Self.check(CMTimebaseRemoveTimer(self, timer: timer)) }

    /// Stops managing a dispatch timer source (`CMTimebaseRemoveTimerDispatchSource`).
    public func removeTimer<T: DispatchSourceTimer>(_ timer: T) throws {
        try Self.check(CMTimebaseRemoveTimerDispatchSource(self, timerSource: timer))
    }

    /// Sets when a run-loop timer fires next (`CMTimebaseSetTimerNextFireTime`).
    public func setTimerNextFireTime(_ timer: Timer, fireTime: CMTime) throws {
        try Self.check(CMTimebaseSetTimerNextFireTime(self, timer: timer, fireTime: fireTime, flags: 0))
    }

    /// Sets when a dispatch timer source fires next (`CMTimebaseSetTimerDispatchSourceNextFireTime`).
    public func setTimerNextFireTime<T: DispatchSourceTimer>(_ timer: T, fireTime: CMTime) throws {
        try Self.check(CMTimebaseSetTimerDispatchSourceNextFireTime(self, timerSource: timer, fireTime: fireTime, flags: 0))
    }

    /// Makes a run-loop timer fire now (`CMTimebaseSetTimerToFireImmediately`).
    public func setTimerToFireImmediately(_ timer: Timer) throws {
        try Self.check(CMTimebaseSetTimerToFireImmediately(self, timer: timer))
    }

    /// Makes a dispatch timer source fire now (`CMTimebaseSetTimerDispatchSourceToFireImmediately`).
    public func setTimerToFireImmediately<T: DispatchSourceTimer>(_ timer: T) throws {
        try Self.check(CMTimebaseSetTimerDispatchSourceToFireImmediately(self, timerSource: timer))
    }

    /// Waits until the timebase is not posting notifications (`CMTimebaseNotificationBarrier`).
    public func notificationBarrier() throws { try Self.check(CMTimebaseNotificationBarrier(self)) }
}
