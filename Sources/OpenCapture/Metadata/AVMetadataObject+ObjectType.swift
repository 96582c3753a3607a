// Apple's AVMetadataObjectType constants (AVMetadataObject.h). The raw strings of the iOS
// 7/8 types are what an iPhone prints for them; the later ones follow the same naming.
extension AVMetadataObject.ObjectType {
    /// A human body (`AVMetadataHumanBodyObject`).
    public static let humanBody = Self(rawValue: "humanBody")
    /// A human full body (`AVMetadataHumanFullBodyObject`).
    public static let humanFullBody = Self(rawValue: "humanFullBody")
    /// A cat's body (`AVMetadataCatBodyObject`).
    public static let catBody = Self(rawValue: "catBody")
    /// A dog's body (`AVMetadataDogBodyObject`).
    public static let dogBody = Self(rawValue: "dogBody")
    /// A salient object (`AVMetadataSalientObject`).
    public static let salientObject = Self(rawValue: "salientObject")
    /// A face (`AVMetadataFaceObject`).
    public static let face = Self(rawValue: "face")
    /// UPC-E.
    public static let upce = Self(rawValue: "org.gs1.UPC-E")
    /// Code 39.
    public static let code39 = Self(rawValue: "org.iso.Code39")
    /// Code 39 with a mod 43 check character.
    public static let code39Mod43 = Self(rawValue: "org.iso.Code39Mod43")
    /// EAN-13, and UPC-A (as EAN-13 with a leading 0).
    public static let ean13 = Self(rawValue: "org.gs1.EAN-13")
    /// EAN-8.
    public static let ean8 = Self(rawValue: "org.gs1.EAN-8")
    /// Code 93.
    public static let code93 = Self(rawValue: "com.intermec.Code93")
    /// Code 128.
    public static let code128 = Self(rawValue: "org.iso.Code128")
    /// PDF417.
    public static let pdf417 = Self(rawValue: "org.iso.PDF417")
    /// QR code.
    public static let qr = Self(rawValue: "org.iso.QRCode")
    /// Aztec.
    public static let aztec = Self(rawValue: "org.iso.Aztec")
    /// Interleaved 2 of 5.
    public static let interleaved2of5 = Self(rawValue: "org.ansi.Interleaved2of5")
    /// ITF-14 (Interleaved 2 of 5 with 14 digits and a GS1 check digit).
    public static let itf14 = Self(rawValue: "org.gs1.ITF14")
    /// Data Matrix.
    public static let dataMatrix = Self(rawValue: "org.iso.DataMatrix")
    /// Codabar.
    public static let codabar = Self(rawValue: "Codabar")
    /// GS1 DataBar.
    public static let gs1DataBar = Self(rawValue: "org.gs1.GS1DataBar")
    /// GS1 DataBar Expanded.
    public static let gs1DataBarExpanded = Self(rawValue: "org.gs1.GS1DataBarExpanded")
    /// GS1 DataBar Limited.
    public static let gs1DataBarLimited = Self(rawValue: "org.gs1.GS1DataBarLimited")
    /// Micro QR code.
    public static let microQR = Self(rawValue: "org.iso.MicroQR")
    /// MicroPDF417.
    public static let microPDF417 = Self(rawValue: "org.iso.MicroPDF417")
}
