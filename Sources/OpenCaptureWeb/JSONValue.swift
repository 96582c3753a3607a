import Foundation

/// A JSON value as it was written, for checking request bodies strictly: on Linux
/// `JSONSerialization` hands `true` and `1` back as the same kind of `NSNumber`, so a
/// number control could not refuse a boolean. `JSONDecoder` keeps the kinds apart.
enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The object a body holds, or nil when it is not valid JSON or not an object.
    static func object(in body: Data) -> [String: JSONValue]? {
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: body) else { return nil }
        return object
    }

    var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// A number that is a whole number fitting `Int`.
    var integer: Int? { number.flatMap { Int(exactly: $0) } }
}
