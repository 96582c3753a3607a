import Foundation

/// The first time after the range: `start + duration`; invalid for an invalid range.
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime {
    guard range.isValid else { return .invalid }
    return CMTimeAdd(range.start, range.duration)
}

/// The smallest range holding both ranges: from the earlier start to the later end
/// (invalid when either is invalid).
public func CMTimeRangeGetUnion(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    guard range.isValid, otherRange.isValid else { return .invalid }
    let start = CMTimeMinimum(range.start, otherRange.start)
    let end = CMTimeMaximum(range.end, otherRange.end)
    return CMTimeRange(start: start, end: end)
}

/// The overlap of two ranges: from the later start to the earlier end; `kCMTimeRangeZero`
/// when they do not overlap, invalid when either is invalid.
public func CMTimeRangeGetIntersection(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    guard range.isValid, otherRange.isValid else { return .invalid }
    let start = CMTimeMaximum(range.start, otherRange.start)
    let end = CMTimeMinimum(range.end, otherRange.end)
    guard CMTimeCompare(start, end) < 0 else { return .zero }
    return CMTimeRange(start: start, end: end)
}

/// Whether two ranges have equal starts and durations.
public func CMTimeRangeEqual(_ range1: CMTimeRange, _ range2: CMTimeRange) -> Bool {
    CMTimeCompare(range1.start, range2.start) == 0 && CMTimeCompare(range1.duration, range2.duration) == 0
}

/// Whether `start <= time < end` (false for an invalid range or time).
public func CMTimeRangeContainsTime(_ range: CMTimeRange, time: CMTime) -> Bool {
    guard range.isValid, time.isValid else { return false }
    return CMTimeCompare(time, range.start) >= 0 && CMTimeCompare(time, range.end) < 0
}

/// Whether `otherRange` lies within `range` (both valid).
public func CMTimeRangeContainsTimeRange(_ range: CMTimeRange, otherRange: CMTimeRange) -> Bool {
    guard range.isValid, otherRange.isValid else { return false }
    return CMTimeCompare(otherRange.start, range.start) >= 0 && CMTimeCompare(otherRange.end, range.end) <= 0
}

/// Maps `t` from `fromRange` to `toRange` linearly: `fromRange.start` goes to
/// `toRange.start`, `fromRange.end` to `toRange.end`.
public func CMTimeMapTimeFromRangeToRange(_ t: CMTime, fromRange: CMTimeRange, toRange: CMTimeRange) -> CMTime {
    guard t.isNumeric, fromRange.isValid, toRange.isValid else { return .invalid }
    let offset = CMTimeMapDurationFromRangeToRange(CMTimeSubtract(t, fromRange.start), fromRange: fromRange, toRange: toRange)
    return CMTimeAdd(toRange.start, offset)
}

/// Scales a duration by `toRange.duration / fromRange.duration`.
public func CMTimeMapDurationFromRangeToRange(_ dur: CMTime, fromRange: CMTimeRange, toRange: CMTimeRange) -> CMTime {
    guard dur.isNumeric, fromRange.isValid, toRange.isValid else { return .invalid }
    if CMTimeCompare(fromRange.duration, toRange.duration) == 0 { return dur }
    let from = fromRange.duration.seconds, to = toRange.duration.seconds
    guard from != 0, from.isFinite, to.isFinite else { return .invalid }
    return CMTimeMultiplyByFloat64(dur, multiplier: to / from)
}

/// `time` clamped to `[range.start, range.end]`.
public func CMTimeClampToRange(_ time: CMTime, range: CMTimeRange) -> CMTime {
    guard range.isValid, time.isValid else { return .invalid }
    if CMTimeCompare(time, range.start) < 0 { return range.start }
    if CMTimeCompare(time, range.end) > 0 { return range.end }
    return time
}

/// `time` folded into `foldRange`: a time outside it is moved by whole durations until
/// it falls inside, as a looping playhead.
public func CMTimeFoldIntoRange(_ time: CMTime, foldRange: CMTimeRange) -> CMTime {
    guard time.isNumeric, foldRange.isValid, foldRange.start.isNumeric, foldRange.duration.isNumeric else { return .invalid }
    if foldRange.containsTime(time) || foldRange.isEmpty { return foldRange.isEmpty ? foldRange.start : time }
    let scale = max(time.timescale, foldRange.start.timescale, foldRange.duration.timescale)
    let t = CMTimeConvertScale(time, timescale: scale, method: .default).value
    let start = CMTimeConvertScale(foldRange.start, timescale: scale, method: .default).value
    let length = CMTimeConvertScale(foldRange.duration, timescale: scale, method: .default).value
    var offset = (t - start) % length
    if offset < 0 { offset += length }
    return CMTime(value: start + offset, timescale: scale)
}

/// Prints a range, as `CMTimeRangeShow` does.
public func CMTimeRangeShow(_ range: CMTimeRange) {
    print(range.description)
}

/// Prints a time, as `CMTimeShow` does.
public func CMTimeShow(_ time: CMTime) {
    print(time.description)
}
