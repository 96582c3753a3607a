import CaptureCore
import Foundation
import QuartzCore

// CVImageBuffer.h's colour space function. It lives here, not beside the other CVImageBuffer.h
// functions in CaptureCore, because it returns a Core Graphics type: CGColorSpace belongs in
// QuartzCore with CGColor and CGImage, which use it, and OpenCapture is the lowest target that
// sees both QuartzCore and the Core Video attachment keys. Putting CGColorSpace in CaptureCore
// would split Core Graphics over two modules, and making QuartzCore depend on CaptureCore would
// give `import QuartzCore` all of Core Media. `import CoreVideo` and `import AVFoundation`
// re-export OpenCapture (and so QuartzCore), so apps find the function where Apple has it and
// see one CGColorSpace whichever modules they import.

/// The colour space an image buffer's attachments describe (`CVBufferCopyAttachments(buffer,
/// .shouldPropagate)!`), retained: `takeRetainedValue()` it, as on iOS. The colour primaries
/// (`kCVImageBufferColorPrimariesKey`) and transfer function (`…TransferFunctionKey`, with
/// `kCVImageBufferGammaLevelKey` for `…_UseGamma`) name the space:
///
/// | primaries | transfer function | space |
/// |---|---|---|
/// | ITU_R_709_2 | IEC_sRGB | `CGColorSpace.sRGB` |
/// | ITU_R_709_2 | ITU_R_709_2 or ITU_R_2020 | `.itur_709` |
/// | ITU_R_709_2 | Linear / SMPTE_ST_2084_PQ / ITU_R_2100_HLG | `.linearSRGB` / `.itur_709_PQ` / `.itur_709_HLG` |
/// | P3_D65 | IEC_sRGB or ITU_R_709_2 | `.displayP3` |
/// | P3_D65 | Linear / SMPTE_ST_2084_PQ / ITU_R_2100_HLG | `.linearDisplayP3` / `.displayP3_PQ` / `.displayP3_HLG` |
/// | DCI_P3 | UseGamma, gamma 2.6 | `.dcip3` |
/// | ITU_R_2020 | ITU_R_709_2 or ITU_R_2020 | `.itur_2020` |
/// | ITU_R_2020 | IEC_sRGB / Linear | `.itur_2020_sRGBGamma` / `.linearITUR_2020` |
/// | ITU_R_2020 | ITU_R_2100_HLG / SMPTE_ST_2084_PQ | `.itur_2100_HLG` / `.itur_2100_PQ` |
///
/// Nil when either tag is missing or the pair names no system space (EBU 3213 or SMPTE C
/// primaries, a gamma other than 2.6 …), where Core Video would build an unnamed ICC-based
/// space. The Y'CbCr matrix says how Y'CbCr samples become RGB, not which RGB, so it is not
/// needed (RGB buffers carry none). An ICC profile (`kCVImageBufferICCProfileKey`) is not
/// read: OpenCapture has no ICC support.
///
/// The camera's buffers carry the tags of their colour space, so this gives the camera's:
/// sRGB for `AVCaptureColorSpace.sRGB` (and V4L2 cameras), Display P3 for `.P3_D65`, BT.2100
/// HLG for `.HLG_BT2020`.
public func CVImageBufferCreateColorSpaceFromAttachments(_ attachments: [String: Any]) -> Unmanaged<CGColorSpace>? {
    guard let name = colorSpaceName(attachments), let space = CGColorSpace(name: name) else { return nil }
    return Unmanaged.passRetained(space)
}

/// The colour space an image buffer's own attachments name (nil when they name none).
func imageBufferColorSpace(_ buffer: CVImageBuffer) -> CGColorSpace? {
    CVBufferCopyAttachments(buffer, .shouldPropagate).flatMap(colorSpaceName).flatMap { CGColorSpace(name: $0) }
}

/// The system colour space name of the primaries and transfer function in `attachments`.
private func colorSpaceName(_ attachments: [String: Any]) -> String? {
    guard let primaries = attachmentString(attachments[kCVImageBufferColorPrimariesKey]),
        let transfer = attachmentString(attachments[kCVImageBufferTransferFunctionKey])
    else { return nil }
    let sdrTransfers = [kCVImageBufferTransferFunction_ITU_R_709_2, kCVImageBufferTransferFunction_ITU_R_2020]
    switch (primaries, transfer) {
    case (kCVImageBufferColorPrimaries_ITU_R_709_2, kCVImageBufferTransferFunction_sRGB): return CGColorSpace.sRGB
    case (kCVImageBufferColorPrimaries_ITU_R_709_2, _) where sdrTransfers.contains(transfer): return CGColorSpace.itur_709
    case (kCVImageBufferColorPrimaries_ITU_R_709_2, kCVImageBufferTransferFunction_Linear): return CGColorSpace.linearSRGB
    case (kCVImageBufferColorPrimaries_ITU_R_709_2, kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ): return CGColorSpace.itur_709_PQ
    case (kCVImageBufferColorPrimaries_ITU_R_709_2, kCVImageBufferTransferFunction_ITU_R_2100_HLG): return CGColorSpace.itur_709_HLG
    // P3 capture uses the sRGB curve; a BT.709-tagged P3 buffer is Display P3 too, the only
    // system space with P3 primaries, D65 white and an SDR curve.
    case (kCVImageBufferColorPrimaries_P3_D65, kCVImageBufferTransferFunction_sRGB),
        (kCVImageBufferColorPrimaries_P3_D65, kCVImageBufferTransferFunction_ITU_R_709_2):
        return CGColorSpace.displayP3
    case (kCVImageBufferColorPrimaries_P3_D65, kCVImageBufferTransferFunction_Linear): return CGColorSpace.linearDisplayP3
    case (kCVImageBufferColorPrimaries_P3_D65, kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ): return CGColorSpace.displayP3_PQ
    case (kCVImageBufferColorPrimaries_P3_D65, kCVImageBufferTransferFunction_ITU_R_2100_HLG): return CGColorSpace.displayP3_HLG
    case (kCVImageBufferColorPrimaries_DCI_P3, kCVImageBufferTransferFunction_UseGamma):
        guard let gamma = attachmentNumber(attachments[kCVImageBufferGammaLevelKey]), abs(gamma - 2.6) < 0.01 else { return nil }
        return CGColorSpace.dcip3
    case (kCVImageBufferColorPrimaries_ITU_R_2020, _) where sdrTransfers.contains(transfer): return CGColorSpace.itur_2020
    case (kCVImageBufferColorPrimaries_ITU_R_2020, kCVImageBufferTransferFunction_sRGB): return CGColorSpace.itur_2020_sRGBGamma
    case (kCVImageBufferColorPrimaries_ITU_R_2020, kCVImageBufferTransferFunction_Linear): return CGColorSpace.linearITUR_2020
    case (kCVImageBufferColorPrimaries_ITU_R_2020, kCVImageBufferTransferFunction_ITU_R_2100_HLG): return CGColorSpace.itur_2100_HLG
    case (kCVImageBufferColorPrimaries_ITU_R_2020, kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ): return CGColorSpace.itur_2100_PQ
    default: return nil
    }
}

/// A tag value, given as a Swift string or an NSString.
private func attachmentString(_ value: Any?) -> String? {
    switch value {
    case let string as String: string
    case let string as NSString: string.description
    default: nil
    }
}

/// A number, given as NSNumber or a Swift number.
private func attachmentNumber(_ value: Any?) -> Double? {
    switch value {
    case let number as NSNumber: number.doubleValue
    case let value as Double: value
    case let value as Float: Double(value)
    case let value as CGFloat: Double(value)
    case let value as Int: Double(value)
    default: nil
    }
}

/// The same for attachments given as a Core Foundation dictionary (`CFDictionary` is
/// `NSDictionary` here, as it is toll-free bridged on Apple platforms), so
/// `CVImageBufferCreateColorSpaceFromAttachments(tags as CFDictionary)` reads as on iOS.
public func CVImageBufferCreateColorSpaceFromAttachments(_ attachments: NSDictionary) -> Unmanaged<CGColorSpace>? {
    var dictionary: [String: Any] = [:]
    for case let (key as String, value) in attachments { dictionary[key] = value }
    return CVImageBufferCreateColorSpaceFromAttachments(dictionary)
}
