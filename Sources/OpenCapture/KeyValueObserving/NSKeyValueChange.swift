import Foundation

/// The kind of a key-value change (Apple's `NSKeyValueChange`). Capture properties are not
/// to-many relationships, so their changes are always `.setting`.
public enum NSKeyValueChange: UInt, Sendable {
    /// The value was replaced.
    case setting = 1
    /// Objects were inserted into a to-many relationship.
    case insertion = 2
    /// Objects were removed from a to-many relationship.
    case removal = 3
    /// Objects of a to-many relationship were replaced.
    case replacement = 4
}
