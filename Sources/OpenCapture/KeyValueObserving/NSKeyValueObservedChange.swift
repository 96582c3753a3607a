import Foundation

/// One change delivered to the handler of `observe(_:options:changeHandler:)` (Apple's
/// `NSKeyValueObservedChange`).
///
/// `newValue` and `oldValue` are set only when the options asked for them (`.new`, `.old`);
/// a prior notification (`.prior`) has no `newValue`; an `.initial` one has no `oldValue`.
public struct NSKeyValueObservedChange<Value> {
    /// Apple's name for the kind type.
    public typealias Kind = NSKeyValueChange

    /// Always `.setting` for capture properties.
    public let kind: Kind
    /// The value after the change, when asked for with `.new`.
    public let newValue: Value?
    /// The value before the change, when asked for with `.old`.
    public let oldValue: Value?
    /// The indexes of a to-many change; always nil here.
    public let indexes: IndexSet?
    /// Whether this is the notification sent before the change (`.prior`).
    public let isPrior: Bool

    init(kind: Kind = .setting, newValue: Value?, oldValue: Value?, indexes: IndexSet? = nil, isPrior: Bool) {
        self.kind = kind
        self.newValue = newValue
        self.oldValue = oldValue
        self.indexes = indexes
        self.isPrior = isPrior
    }
}

extension NSKeyValueObservedChange: @unchecked Sendable where Value: Sendable {}
