import Foundation

/// A range of time: a start and a duration, as CMTimeRange.h's `CMTimeRange`.
///
/// Valid when both times are valid and the duration is a non-negative epoch-0 time; it
/// holds the times `start <= t < start + duration`.
public struct CMTimeRange: Sendable, Hashable, CustomStringConvertible {
    /// The first time in the range.
    public var start: CMTime
    /// How long the range lasts.
    public var duration: CMTime

    /// The invalid range: both times invalid (`kCMTimeRangeInvalid`).
    public init() {
        start = .invalid
        duration = .invalid
    }

    /// A range from `start` lasting `duration`.
    public init(start: CMTime, duration: CMTime) {
        self.start = start
        self.duration = duration
    }

    /// The range from `start` up to (not including) `end`.
    public init(start: CMTime, end: CMTime) {
        self.init(start: start, duration: CMTimeSubtract(end, start))
    }

    /// The empty range at time zero (`kCMTimeRangeZero`).
    public static let zero = CMTimeRange(start: .zero, duration: .zero)
    /// The invalid range (`kCMTimeRangeInvalid`).
    public static let invalid = CMTimeRange()

    /// `CMTIMERANGE_IS_VALID`: both times valid, the duration of epoch 0 and not negative.
    public var isValid: Bool {
        start.isValid && duration.isValid && duration.epoch == 0 && duration.value >= 0
    }

    /// `CMTIMERANGE_IS_INDEFINITE`: valid, with an indefinite start or duration.
    public var isIndefinite: Bool { isValid && (start.isIndefinite || duration.isIndefinite) }

    /// `CMTIMERANGE_IS_EMPTY`: valid, with a zero duration.
    public var isEmpty: Bool { isValid && CMTimeCompare(duration, .zero) == 0 }

    /// The first time after the range (`CMTimeRangeGetEnd`).
    public var end: CMTime { CMTimeRangeGetEnd(self) }

    /// The smallest range holding both (`CMTimeRangeGetUnion`).
    public func union(_ otherRange: CMTimeRange) -> CMTimeRange { CMTimeRangeGetUnion(self, otherRange: otherRange) }

    /// The overlap of both (`CMTimeRangeGetIntersection`).
    public func intersection(_ otherRange: CMTimeRange) -> CMTimeRange {
        CMTimeRangeGetIntersection(self, otherRange: otherRange)
    }

    /// Whether `time` is in the range (`CMTimeRangeContainsTime`).
    public func containsTime(_ time: CMTime) -> Bool { CMTimeRangeContainsTime(self, time: time) }

    /// Whether `range` lies within this range (`CMTimeRangeContainsTimeRange`).
    public func containsTimeRange(_ range: CMTimeRange) -> Bool { CMTimeRangeContainsTimeRange(self, otherRange: range) }

    /// Ranges are equal when their starts and durations compare equal (`CMTimeRangeEqual`).
    public static func == (range1: CMTimeRange, range2: CMTimeRange) -> Bool { CMTimeRangeEqual(range1, range2) }

    /// Whether the ranges differ.
    public static func != (range1: CMTimeRange, range2: CMTimeRange) -> Bool { !CMTimeRangeEqual(range1, range2) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(start)
        hasher.combine(duration)
    }

    public var description: String { "{\(start), \(duration)}" }
}

/// The empty range at time zero.
public let kCMTimeRangeZero = CMTimeRange.zero
/// The invalid range.
public let kCMTimeRangeInvalid = CMTimeRange.invalid

/// A range from `start` lasting `duration`.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, duration: duration)
}

/// The range from `start` up to `end`.
public func CMTimeRangeFromTimeToTime(start: CMTime, end: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, end: end)
}

/// Whether a range is valid.
public func CMTIMERANGE_IS_VALID(_ range: CMTimeRange) -> Bool { range.isValid }
/// Whether a range is invalid.
public func CMTIMERANGE_IS_INVALID(_ range: CMTimeRange) -> Bool { !range.isValid }
/// Whether a range is valid with an indefinite start or duration.
public func CMTIMERANGE_IS_INDEFINITE(_ range: CMTimeRange) -> Bool { range.isIndefinite }
/// Whether a range is valid and empty.
public func CMTIMERANGE_IS_EMPTY(_ range: CMTimeRange) -> Bool { range.isEmpty }
