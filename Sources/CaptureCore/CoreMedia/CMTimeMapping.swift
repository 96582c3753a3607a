import Foundation

/// A mapping of a source time range onto a target range, as edits of a movie track use them
/// (CMTimeRange.h). An empty mapping (`CMTimeMappingMakeEmpty`) has an invalid source: the
/// target range plays nothing.
public struct CMTimeMapping: Sendable, Hashable, CustomStringConvertible {
    /// The range of the source media.
    public var source: CMTimeRange
    /// The range it occupies in the target's timeline.
    public var target: CMTimeRange

    /// Both ranges invalid (`kCMTimeMappingInvalid`).
    public init() {
        source = .invalid
        target = .invalid
    }

    public init(source: CMTimeRange, target: CMTimeRange) {
        self.source = source
        self.target = target
    }

    /// The invalid mapping (`kCMTimeMappingInvalid`).
    public static let invalid = CMTimeMapping()

    /// Valid when the target range is valid (`CMTIMEMAPPING_IS_VALID`).
    public var isValid: Bool { target.isValid }

    /// Empty when the source start is not numeric and the target start is
    /// (`CMTIMEMAPPING_IS_EMPTY`).
    public var isEmpty: Bool { !source.start.isNumeric && target.start.isNumeric }

    public var description: String { "{source: \(source), target: \(target)}" }
}

/// The invalid mapping: both ranges invalid.
public let kCMTimeMappingInvalid = CMTimeMapping.invalid

/// A mapping from `source` to `target`.
public func CMTimeMappingMake(source: CMTimeRange, target: CMTimeRange) -> CMTimeMapping {
    CMTimeMapping(source: source, target: target)
}

/// An empty edit: nothing from the source plays during `target`.
public func CMTimeMappingMakeEmpty(target: CMTimeRange) -> CMTimeMapping {
    CMTimeMapping(source: .invalid, target: target)
}

/// Whether the mapping's target range is valid.
public func CMTIMEMAPPING_IS_VALID(_ mapping: CMTimeMapping) -> Bool { mapping.isValid }
/// Whether the mapping is invalid.
public func CMTIMEMAPPING_IS_INVALID(_ mapping: CMTimeMapping) -> Bool { !mapping.isValid }
/// Whether the mapping is an empty edit.
public func CMTIMEMAPPING_IS_EMPTY(_ mapping: CMTimeMapping) -> Bool { mapping.isEmpty }

/// Prints a mapping, as `CMTimeMappingShow` does.
public func CMTimeMappingShow(_ mapping: CMTimeMapping) {
    print(mapping.description)
}
