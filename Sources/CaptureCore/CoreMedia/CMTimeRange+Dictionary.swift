import Foundation

// CMTimeRange.h's dictionary and description functions, for ranges and mappings stored in
// property lists and attachments (each time as its `CMTimeCopyAsDictionary` dictionary).

/// The dictionary key of a range's start. The corresponding C constant is `kCMTimeRangeStartKey`.
public let kCMTimeRangeStartKey = "start"
/// The dictionary key of a range's duration.
public let kCMTimeRangeDurationKey = "duration"
/// The dictionary key of a mapping's source range.
public let kCMTimeMappingSourceKey = "source"
/// The dictionary key of a mapping's target range.
public let kCMTimeMappingTargetKey = "target"

/// `range` as a dictionary of its start and duration.
public func CMTimeRangeCopyAsDictionary(_ range: CMTimeRange, allocator: AnyObject?) -> [String: Any]? {
    [
        kCMTimeRangeStartKey: CMTimeCopyAsDictionary(range.start, allocator: allocator) ?? [:],
        kCMTimeRangeDurationKey: CMTimeCopyAsDictionary(range.duration, allocator: allocator) ?? [:],
    ]
}

/// The range a `CMTimeRangeCopyAsDictionary` dictionary holds; `.invalid` when either time
/// is missing.
public func CMTimeRangeMakeFromDictionary(_ dictionaryRepresentation: [String: Any]) -> CMTimeRange {
    guard let start = dictionaryRepresentation[kCMTimeRangeStartKey] as? [String: Any],
        let duration = dictionaryRepresentation[kCMTimeRangeDurationKey] as? [String: Any]
    else { return .invalid }
    return CMTimeRange(start: CMTimeMakeFromDictionary(start), duration: CMTimeMakeFromDictionary(duration))
}

/// The description `CMTimeRangeShow` prints, as a string.
public func CMTimeRangeCopyDescription(allocator: AnyObject?, range: CMTimeRange) -> String? { range.description }

/// `mapping` as a dictionary of its source and target ranges.
public func CMTimeMappingCopyAsDictionary(_ mapping: CMTimeMapping, allocator: AnyObject?) -> [String: Any]? {
    [
        kCMTimeMappingSourceKey: CMTimeRangeCopyAsDictionary(mapping.source, allocator: allocator) ?? [:],
        kCMTimeMappingTargetKey: CMTimeRangeCopyAsDictionary(mapping.target, allocator: allocator) ?? [:],
    ]
}

/// The mapping a `CMTimeMappingCopyAsDictionary` dictionary holds; `.invalid` when either
/// range is missing.
public func CMTimeMappingMakeFromDictionary(_ dictionaryRepresentation: [String: Any]) -> CMTimeMapping {
    guard let source = dictionaryRepresentation[kCMTimeMappingSourceKey] as? [String: Any],
        let target = dictionaryRepresentation[kCMTimeMappingTargetKey] as? [String: Any]
    else { return .invalid }
    return CMTimeMapping(source: CMTimeRangeMakeFromDictionary(source), target: CMTimeRangeMakeFromDictionary(target))
}

/// The description `CMTimeMappingShow` prints, as a string.
public func CMTimeMappingCopyDescription(allocator: AnyObject?, mapping: CMTimeMapping) -> String? { mapping.description }
