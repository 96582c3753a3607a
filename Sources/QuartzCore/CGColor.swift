import Foundation

/// A colour, as Core Graphics' `CGColor`: components in a colour space, each 0…1 (beyond in
/// an extended space), alpha last. Nothing converts colours between spaces here; a colour
/// keeps the space it was made in.
public final class CGColor: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The components: red, green, blue, alpha for RGB colours; grey, alpha for grey ones.
    public let components: [CGFloat]?
    /// The colour's space: sRGB for `init(red:green:blue:alpha:)` (iOS has no generic RGB),
    /// generic grey gamma 2.2 for `init(gray:alpha:)`, the given one for
    /// `init(colorSpace:components:)`.
    public let colorSpace: CGColorSpace?
    /// How many components there are, alpha included.
    public var numberOfComponents: Int { components?.count ?? 0 }
    /// The colour's alpha.
    public var alpha: CGFloat { components?.last ?? 1 }

    /// An RGB colour, in sRGB.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(components: [red, green, blue, alpha], space: CGColorSpace(name: CGColorSpace.sRGB))
    }

    /// An sRGB colour (iOS 13).
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// A grey colour, in generic grey gamma 2.2.
    public convenience init(gray: CGFloat, alpha: CGFloat) {
        self.init(components: [gray, alpha], space: CGColorSpace(name: CGColorSpace.genericGrayGamma2_2))
    }

    /// A grey colour in generic grey gamma 2.2 (iOS 13).
    public convenience init(genericGrayGamma2_2Gray gray: CGFloat, alpha: CGFloat) {
        self.init(gray: gray, alpha: alpha)
    }

    /// A colour in `space`: `components` holds the space's `numberOfComponents` values and
    /// then alpha. Nil for a space without components (none that can be made here).
    public convenience init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        guard space.numberOfComponents > 0 else { return nil }
        self.init(components: Array(UnsafeBufferPointer(start: components, count: space.numberOfComponents + 1)), space: space)
    }

    private init(components: [CGFloat], space: CGColorSpace?) {
        self.components = components
        colorSpace = space
    }

    /// Opaque black.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Transparent black.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// The same colour, in the same space, with another alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        guard var values = components, !values.isEmpty else { return nil }
        values[values.count - 1] = alpha
        return CGColor(components: values, space: colorSpace)
    }

    /// Equal colours have the same space and components, as `CGColorEqualToColor` says.
    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs.components == rhs.components && lhs.colorSpace == rhs.colorSpace
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(components) }
    public var description: String { "<CGColor \(components ?? [])> \(colorSpace?.name ?? "no space")" }
}
