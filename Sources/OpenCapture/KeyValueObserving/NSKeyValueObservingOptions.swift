import Foundation

/// What a key-value observation reports (Apple's `NSKeyValueObservingOptions`; Foundation
/// on Linux does not declare it).
public struct NSKeyValueObservingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The change carries the value after the change.
    public static let new = NSKeyValueObservingOptions(rawValue: 0x01)
    /// The change carries the value before the change.
    public static let old = NSKeyValueObservingOptions(rawValue: 0x02)
    /// The observer is called once at once, while registering, with the current value
    /// (as `newValue` when `.new` is also given).
    public static let initial = NSKeyValueObservingOptions(rawValue: 0x04)
    /// The observer is also called before each change, with `isPrior` true (and the old
    /// value when `.old` is given).
    public static let prior = NSKeyValueObservingOptions(rawValue: 0x08)
}
