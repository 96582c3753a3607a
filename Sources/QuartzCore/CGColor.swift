import Foundation

/// A colour, as Core Graphics' `CGColor`: components in a device RGB or grey space (Linux
/// has no colour-managed spaces), each 0…1, alpha last.
public final class CGColor: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The components: red, green, blue, alpha for RGB colours; grey, alpha for grey ones.
    public let components: [CGFloat]?
    /// How many components there are, alpha included.
    public var numberOfComponents: Int { components?.count ?? 0 }
    /// The colour's alpha.
    public var alpha: CGFloat { components?.last ?? 1 }

    /// An RGB colour.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        components = [red, green, blue, alpha]
    }

    /// A grey colour.
    public init(gray: CGFloat, alpha: CGFloat) {
        components = [gray, alpha]
    }

    /// Opaque black.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Transparent black.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// The same colour with another alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        guard var values = components else { return nil }
        values[values.count - 1] = alpha
        return values.count == 2 ? CGColor(gray: values[0], alpha: alpha) : CGColor(red: values[0], green: values[1], blue: values[2], alpha: alpha)
    }

    public static func == (lhs: CGColor, rhs: CGColor) -> Bool { lhs.components == rhs.components }
    public func hash(into hasher: inout Hasher) { hasher.combine(components) }
    public var description: String { "<CGColor \(components ?? [])>" }
}
