import Foundation

/// The kind of colour a colour space holds (Core Graphics' `CGColorSpaceModel`, same raw
/// values).
public enum CGColorSpaceModel: Int32, Sendable {
    case unknown = -1
    case monochrome = 0
    case rgb = 1
    case cmyk = 2
    case lab = 3
    case deviceN = 4
    case indexed = 5
    case pattern = 6
    case XYZ = 7
}

/// A colour space (Core Graphics' `CGColorSpace`): a named system space
/// (`CGColorSpace(name: CGColorSpace.sRGB)`, the names in `CGColorSpace+Names.swift`) or a
/// device space (`CGColorSpaceCreateDeviceRGB()`), with what Core Graphics reports of it:
/// `name`, `model`, `numberOfComponents`, `isWideGamutRGB`, `supportsOutput`, and whether it
/// is HDR (PQ or HLG), linear or extended-range. No colour is converted between spaces here
/// (nothing draws), and no ICC profile is read or written (see docs/ARCHITECTURE.md,
/// "Unsupported on Linux"); a space is what it is named.
///
/// Apple's name constants are `CFString`s; here, as elsewhere in OpenCapture, they are
/// Swift `String`s, so `CGColorSpace(name: CGColorSpace.sRGB)` and
/// `space.name == CGColorSpace.displayP3` read as on iOS.
public final class CGColorSpace: Sendable, Hashable, CustomStringConvertible {
    /// The space's system name (`CGColorSpace.sRGB` …); device spaces have their own names,
    /// "kCGColorSpaceDeviceRGB" and "kCGColorSpaceDeviceGray", as Core Graphics gives them.
    public let name: String?
    /// Whether the space is RGB, grey, CMYK, L*a*b* or XYZ.
    public let model: CGColorSpaceModel
    /// Colour components, alpha not counted: 3 for RGB, 1 for grey, 4 for CMYK.
    public let numberOfComponents: Int
    /// What the name says of the space.
    let traits: CGColorSpaceTraits

    /// The system colour space called `name`; nil for a name Core Graphics does not know
    /// (a device space's name included: those come from `CGColorSpaceCreateDeviceRGB()` and
    /// `CGColorSpaceCreateDeviceGray()`).
    public convenience init?(name: String) {
        guard let traits = CGColorSpaceTraits.named[name] else { return nil }
        self.init(name: name, traits: traits)
    }

    init(name: String, traits: CGColorSpaceTraits) {
        self.name = name
        self.traits = traits
        model = traits.model
        numberOfComponents = traits.model.componentCount
    }

    /// Whether the space's primaries span more than 85 % of the NTSC (1953) gamut's area in
    /// the CIE xy diagram, Core Graphics' rule: Display P3, DCI-P3, BT.2020 (and the BT.2100
    /// spaces), Adobe RGB, ROMM RGB and ACEScg are wide; sRGB and BT.709 (72 %) are not,
    /// extended-range sRGB included (its primaries are sRGB's). False for non-RGB spaces.
    public var isWideGamutRGB: Bool {
        guard model == .rgb, let primaries = traits.primaries else { return false }
        return primaries.area / CGColorSpacePrimaries.ntsc1953.area > 0.85
    }

    /// Whether the space can be drawn into (a destination of colour matching): every space
    /// here but L*a*b*.
    public var supportsOutput: Bool { model != .lab }

    /// Whether the space uses an HDR transfer function of ITU-R BT.2100 (PQ or HLG).
    public func isHDR() -> Bool { traits.transfer == .pq || traits.transfer == .hlg }

    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { "<CGColorSpace> (\(name ?? "unnamed"); \(model))" }
}

/// A device-dependent RGB space. Linux shows pictures as sRGB, so its colours are sRGB's; its
/// name is "kCGColorSpaceDeviceRGB".
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace {
    CGColorSpace(name: CGColorSpaceTraits.deviceRGBName, traits: CGColorSpaceTraits(.rgb, .sRGB, .sRGB))
}

/// A device-dependent grey space, named "kCGColorSpaceDeviceGray".
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace {
    CGColorSpace(name: CGColorSpaceTraits.deviceGrayName, traits: CGColorSpaceTraits(.monochrome, nil, .gamma22))
}

/// Whether `space` uses a transfer function of ITU-R BT.2100 (PQ or HLG), as
/// `isHDR()` says.
public func CGColorSpaceUsesITUR_2100TF(_ space: CGColorSpace) -> Bool { space.isHDR() }

/// Whether `space` uses the PQ transfer function (SMPTE ST 2084).
public func CGColorSpaceIsPQBased(_ s: CGColorSpace) -> Bool { s.traits.transfer == .pq }

/// Whether `space` uses the hybrid log-gamma transfer function (ARIB STD-B67).
public func CGColorSpaceIsHLGBased(_ s: CGColorSpace) -> Bool { s.traits.transfer == .hlg }

/// Whether `space` takes component values beyond 0…1 (the "extended" spaces).
public func CGColorSpaceUsesExtendedRange(_ space: CGColorSpace) -> Bool { space.traits.extended }
