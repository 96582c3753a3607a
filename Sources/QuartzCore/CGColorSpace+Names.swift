import Foundation

// The system colour space names of CGColorSpace.h with their Swift names (Core Graphics'
// API notes) and string values (the C constants' names), and what each name says of its
// space. `kCGColorSpaceGenericGray` and `kCGColorSpaceGenericRGB` are unavailable in Swift,
// and the four names deprecated in iOS 14 ("No longer supported") are left out.

extension CGColorSpace {
    // MARK: RGB, sRGB primaries

    /// sRGB (IEC 61966-2.1): BT.709 primaries, D65 white, the sRGB curve.
    public static let sRGB = "kCGColorSpaceSRGB"
    /// sRGB with a linear transfer function.
    public static let linearSRGB = "kCGColorSpaceLinearSRGB"
    /// sRGB whose components may go below 0 and above 1.
    public static let extendedSRGB = "kCGColorSpaceExtendedSRGB"
    /// Linear sRGB whose components may go below 0 and above 1.
    public static let extendedLinearSRGB = "kCGColorSpaceExtendedLinearSRGB"
    /// ITU-R BT.709: sRGB's primaries and white with the BT.709 transfer function.
    public static let itur_709 = "kCGColorSpaceITUR_709"
    /// BT.709 primaries with the PQ transfer function.
    public static let itur_709_PQ = "kCGColorSpaceITUR_709_PQ"
    /// BT.709 primaries with the hybrid log-gamma transfer function.
    public static let itur_709_HLG = "kCGColorSpaceITUR_709_HLG"
    /// Core Media's BT.709 space (iOS 18).
    public static let coreMedia709 = "kCGColorSpaceCoreMedia709"
    /// Apple's legacy generic RGB with a linear transfer function.
    public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"

    // MARK: RGB, wide primaries

    /// Display P3: P3 primaries, D65 white, the sRGB curve.
    public static let displayP3 = "kCGColorSpaceDisplayP3"
    /// Display P3 with a linear transfer function.
    public static let linearDisplayP3 = "kCGColorSpaceLinearDisplayP3"
    /// Display P3 whose components may go below 0 and above 1.
    public static let extendedDisplayP3 = "kCGColorSpaceExtendedDisplayP3"
    /// Linear Display P3 whose components may go below 0 and above 1.
    public static let extendedLinearDisplayP3 = "kCGColorSpaceExtendedLinearDisplayP3"
    /// P3 primaries with the PQ transfer function.
    public static let displayP3_PQ = "kCGColorSpaceDisplayP3_PQ"
    /// P3 primaries with the hybrid log-gamma transfer function.
    public static let displayP3_HLG = "kCGColorSpaceDisplayP3_HLG"
    /// DCI-P3: P3 primaries, the DCI white point, gamma 2.6.
    public static let dcip3 = "kCGColorSpaceDCIP3"
    /// ITU-R BT.2020: BT.2020 primaries, D65 white, the BT.709 (= BT.2020) transfer function.
    public static let itur_2020 = "kCGColorSpaceITUR_2020"
    /// BT.2020 primaries with the sRGB curve.
    public static let itur_2020_sRGBGamma = "kCGColorSpaceITUR_2020_sRGBGamma"
    /// BT.2020 with a linear transfer function.
    public static let linearITUR_2020 = "kCGColorSpaceLinearITUR_2020"
    /// BT.2020 whose components may go below 0 and above 1.
    public static let extendedITUR_2020 = "kCGColorSpaceExtendedITUR_2020"
    /// Linear BT.2020 whose components may go below 0 and above 1.
    public static let extendedLinearITUR_2020 = "kCGColorSpaceExtendedLinearITUR_2020"
    /// ITU-R BT.2100 with the PQ transfer function (SMPTE ST 2084): HDR10's space.
    public static let itur_2100_PQ = "kCGColorSpaceITUR_2100_PQ"
    /// ITU-R BT.2100 with the hybrid log-gamma transfer function (ARIB STD-B67): the
    /// space of HLG video, as iPhones record it.
    public static let itur_2100_HLG = "kCGColorSpaceITUR_2100_HLG"
    /// Adobe RGB (1998).
    public static let adobeRGB1998 = "kCGColorSpaceAdobeRGB1998"
    /// ROMM RGB (ProPhoto).
    public static let rommrgb = "kCGColorSpaceROMMRGB"
    /// ACEScg: ACES AP1 primaries, linear.
    public static let acescgLinear = "kCGColorSpaceACESCGLinear"

    // MARK: Grey, CMYK, XYZ, L*a*b*

    /// Grey with gamma 2.2.
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
    /// Grey with a linear transfer function.
    public static let linearGray = "kCGColorSpaceLinearGray"
    /// Gamma 2.2 grey whose component may go below 0 and above 1.
    public static let extendedGray = "kCGColorSpaceExtendedGray"
    /// Linear grey whose component may go below 0 and above 1.
    public static let extendedLinearGray = "kCGColorSpaceExtendedLinearGray"
    /// Apple's generic CMYK.
    public static let genericCMYK = "kCGColorSpaceGenericCMYK"
    /// CIE 1931 XYZ.
    public static let genericXYZ = "kCGColorSpaceGenericXYZ"
    /// CIE L*a*b* with a D50 white.
    public static let genericLab = "kCGColorSpaceGenericLab"
}

/// The red, green and blue primaries of an RGB space as CIE 1931 xy chromaticities.
struct CGColorSpacePrimaries: Sendable, Equatable {
    let red: (x: Double, y: Double)
    let green: (x: Double, y: Double)
    let blue: (x: Double, y: Double)

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.red == rhs.red && lhs.green == rhs.green && lhs.blue == rhs.blue
    }

    /// The area of the primaries' triangle in the xy diagram.
    var area: Double {
        abs(red.x * (green.y - blue.y) + green.x * (blue.y - red.y) + blue.x * (red.y - green.y)) / 2
    }

    /// ITU-R BT.709 (= sRGB).
    static let sRGB = Self(red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060))
    /// SMPTE EG 432-1 / RP 431-2 (Display P3 and DCI-P3).
    static let p3 = Self(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
    /// ITU-R BT.2020 (and BT.2100).
    static let bt2020 = Self(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046))
    /// Adobe RGB (1998).
    static let adobeRGB = Self(red: (0.640, 0.330), green: (0.210, 0.710), blue: (0.150, 0.060))
    /// ROMM RGB (ISO 22028-2).
    static let romm = Self(red: (0.7347, 0.2653), green: (0.1596, 0.8404), blue: (0.0366, 0.0001))
    /// ACES AP1.
    static let acesAP1 = Self(red: (0.713, 0.293), green: (0.165, 0.830), blue: (0.128, 0.044))
    /// The P22 phosphors Apple's generic RGB is close to.
    static let p22 = Self(red: (0.625, 0.340), green: (0.280, 0.595), blue: (0.155, 0.070))
    /// NTSC (1953), FCC: the reference of `isWideGamutRGB`.
    static let ntsc1953 = Self(red: (0.670, 0.330), green: (0.210, 0.710), blue: (0.140, 0.080))
}

/// What a colour space name says: model, primaries, transfer function, range.
struct CGColorSpaceTraits: Sendable {
    enum Transfer: Sendable {
        case sRGB, bt709, linear, gamma18, gamma22, gamma26, pq, hlg, other
    }

    let model: CGColorSpaceModel
    let primaries: CGColorSpacePrimaries?
    let transfer: Transfer
    let extended: Bool

    init(_ model: CGColorSpaceModel, _ primaries: CGColorSpacePrimaries?, _ transfer: Transfer, extended: Bool = false) {
        self.model = model
        self.primaries = primaries
        self.transfer = transfer
        self.extended = extended
    }

    static let deviceRGBName = "kCGColorSpaceDeviceRGB"
    static let deviceGrayName = "kCGColorSpaceDeviceGray"

    /// Every name `CGColorSpace(name:)` knows.
    static let named: [String: CGColorSpaceTraits] = [
        CGColorSpace.sRGB: Self(.rgb, .sRGB, .sRGB),
        CGColorSpace.linearSRGB: Self(.rgb, .sRGB, .linear),
        CGColorSpace.extendedSRGB: Self(.rgb, .sRGB, .sRGB, extended: true),
        CGColorSpace.extendedLinearSRGB: Self(.rgb, .sRGB, .linear, extended: true),
        CGColorSpace.itur_709: Self(.rgb, .sRGB, .bt709),
        CGColorSpace.itur_709_PQ: Self(.rgb, .sRGB, .pq),
        CGColorSpace.itur_709_HLG: Self(.rgb, .sRGB, .hlg),
        CGColorSpace.coreMedia709: Self(.rgb, .sRGB, .bt709),
        CGColorSpace.genericRGBLinear: Self(.rgb, .p22, .linear),
        CGColorSpace.displayP3: Self(.rgb, .p3, .sRGB),
        CGColorSpace.linearDisplayP3: Self(.rgb, .p3, .linear),
        CGColorSpace.extendedDisplayP3: Self(.rgb, .p3, .sRGB, extended: true),
        CGColorSpace.extendedLinearDisplayP3: Self(.rgb, .p3, .linear, extended: true),
        CGColorSpace.displayP3_PQ: Self(.rgb, .p3, .pq),
        CGColorSpace.displayP3_HLG: Self(.rgb, .p3, .hlg),
        CGColorSpace.dcip3: Self(.rgb, .p3, .gamma26),
        CGColorSpace.itur_2020: Self(.rgb, .bt2020, .bt709),
        CGColorSpace.itur_2020_sRGBGamma: Self(.rgb, .bt2020, .sRGB),
        CGColorSpace.linearITUR_2020: Self(.rgb, .bt2020, .linear),
        CGColorSpace.extendedITUR_2020: Self(.rgb, .bt2020, .bt709, extended: true),
        CGColorSpace.extendedLinearITUR_2020: Self(.rgb, .bt2020, .linear, extended: true),
        CGColorSpace.itur_2100_PQ: Self(.rgb, .bt2020, .pq),
        CGColorSpace.itur_2100_HLG: Self(.rgb, .bt2020, .hlg),
        CGColorSpace.adobeRGB1998: Self(.rgb, .adobeRGB, .gamma22),
        CGColorSpace.rommrgb: Self(.rgb, .romm, .gamma18),
        CGColorSpace.acescgLinear: Self(.rgb, .acesAP1, .linear),
        CGColorSpace.genericGrayGamma2_2: Self(.monochrome, nil, .gamma22),
        CGColorSpace.linearGray: Self(.monochrome, nil, .linear),
        CGColorSpace.extendedGray: Self(.monochrome, nil, .gamma22, extended: true),
        CGColorSpace.extendedLinearGray: Self(.monochrome, nil, .linear, extended: true),
        CGColorSpace.genericCMYK: Self(.cmyk, nil, .other),
        CGColorSpace.genericXYZ: Self(.XYZ, nil, .linear),
        CGColorSpace.genericLab: Self(.lab, nil, .other),
    ]
}

extension CGColorSpaceModel {
    /// Colour components of a space of this model, alpha not counted.
    var componentCount: Int {
        switch self {
        case .monochrome, .indexed: 1
        case .rgb, .lab, .XYZ: 3
        case .cmyk: 4
        case .unknown, .deviceN, .pattern: 0
        }
    }
}
