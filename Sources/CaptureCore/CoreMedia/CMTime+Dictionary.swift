import Foundation

/// The dictionary key of a time's value (`CMTimeCopyAsDictionary`).
public let kCMTimeValueKey = "value"
/// The dictionary key of a time's timescale.
public let kCMTimeScaleKey = "timescale"
/// The dictionary key of a time's epoch.
public let kCMTimeEpochKey = "epoch"
/// The dictionary key of a time's flags.
public let kCMTimeFlagsKey = "flags"

/// `time` as a dictionary of its four fields (value, timescale, epoch, flags as numbers),
/// to store in property lists and attachments.
public func CMTimeCopyAsDictionary(_ time: CMTime, allocator: AnyObject?) -> [String: Any]? {
    [
        kCMTimeValueKey: NSNumber(value: time.value), kCMTimeScaleKey: NSNumber(value: time.timescale),
        kCMTimeEpochKey: NSNumber(value: time.epoch), kCMTimeFlagsKey: NSNumber(value: time.flags.rawValue),
    ]
}

/// The time a `CMTimeCopyAsDictionary` dictionary holds; `.invalid` when `dictionaryRepresentation`
/// is nil or lacks the value, timescale or flags (a missing epoch is 0).
public func CMTimeMakeFromDictionary(_ dictionaryRepresentation: [String: Any]?) -> CMTime {
    guard let dictionary = dictionaryRepresentation,
        let value = number(dictionary[kCMTimeValueKey]).map({ $0.int64Value }),
        let timescale = number(dictionary[kCMTimeScaleKey]).map({ $0.int32Value }),
        let flags = number(dictionary[kCMTimeFlagsKey]).map({ $0.uint32Value })
    else { return .invalid }
    let epoch = number(dictionary[kCMTimeEpochKey])?.int64Value ?? 0
    return CMTime(value: value, timescale: timescale, flags: CMTimeFlags(rawValue: flags), epoch: epoch)
}

/// A number stored as NSNumber or as a Swift integer.
private func number(_ value: Any?) -> NSNumber? {
    switch value {
    case let number as NSNumber: number
    case let value as Int64: NSNumber(value: value)
    case let value as Int32: NSNumber(value: value)
    case let value as UInt32: NSNumber(value: value)
    case let value as Int: NSNumber(value: value)
    default: nil
    }
}

/// The description `CMTimeShow` prints, as a string.
public func CMTimeCopyDescription(allocator: AnyObject?, time: CMTime) -> String? { time.description }
