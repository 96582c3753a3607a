/// The Mac OS Classic `Boolean` type (an unsigned byte), as C APIs that take a `Boolean *`
/// are imported: `AudioServicesGetPropertyInfo`'s `outWritable`. Swift on Apple platforms
/// defines it in the Darwin overlay, which Linux does not have.
public struct DarwinBoolean: ExpressibleByBooleanLiteral, CustomStringConvertible, Equatable, Hashable, Sendable {
    private var value: UInt8

    /// A value holding `value`.
    public init(_ value: Bool) {
        self.value = value ? 1 : 0
    }

    /// `true` or `false`, as a literal writes it.
    public init(booleanLiteral value: Bool) {
        self.init(value)
    }

    /// The value as a `Bool`: any non-zero byte is true.
    public var boolValue: Bool { value != 0 }

    /// "true" or "false".
    public var description: String { boolValue.description }

    public static func == (lhs: DarwinBoolean, rhs: DarwinBoolean) -> Bool { lhs.boolValue == rhs.boolValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(boolValue) }
}

extension Bool {
    /// The value of a `DarwinBoolean`.
    public init(_ value: DarwinBoolean) {
        self = value.boolValue
    }
}
