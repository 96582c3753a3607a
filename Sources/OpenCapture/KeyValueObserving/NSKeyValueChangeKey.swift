import Foundation

/// The keys of the change dictionary handed to `observeValue(forKeyPath:of:change:context:)`
/// (Apple's `NSKeyValueChangeKey`, with Apple's raw strings).
public struct NSKeyValueChangeKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// An `NSNumber` holding the `NSKeyValueChange` raw value; always present.
    public static let kindKey = NSKeyValueChangeKey("kind")
    /// The value after the change (with `.new`; absent from prior notifications).
    public static let newKey = NSKeyValueChangeKey("new")
    /// The value before the change (with `.old`).
    public static let oldKey = NSKeyValueChangeKey("old")
    /// The changed indexes of a to-many relationship; capture properties never have it.
    public static let indexesKey = NSKeyValueChangeKey("indexes")
    /// `true` in the notification sent before a change (with `.prior`).
    public static let notificationIsPriorKey = NSKeyValueChangeKey("notificationIsPrior")
}
