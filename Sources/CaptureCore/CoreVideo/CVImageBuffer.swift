import Foundation

// CVImageBuffer.h's functions: the geometry an image buffer's attachments describe, and
// the mapping between Core Video's colour tag strings and ITU-T H.273 (CICP) code points.

/// The full encoded size of the buffer in pixels.
public func CVImageBufferGetEncodedSize(_ imageBuffer: CVImageBuffer) -> CGSize {
    CGSize(width: imageBuffer.width, height: imageBuffer.height)
}

/// The clean aperture in encoded pixels, top-left origin: the rectangle the
/// `kCVImageBufferCleanApertureKey` attachment describes (its size centred on the picture,
/// moved by its offsets), or the whole picture when the buffer has none.
public func CVImageBufferGetCleanRect(_ imageBuffer: CVImageBuffer) -> CGRect {
    let whole = CGRect(x: 0, y: 0, width: imageBuffer.width, height: imageBuffer.height)
    guard let aperture = CVBufferCopyAttachment(imageBuffer, kCVImageBufferCleanApertureKey, nil) as? [String: Any],
        let width = attachmentNumber(aperture[kCVImageBufferCleanApertureWidthKey]),
        let height = attachmentNumber(aperture[kCVImageBufferCleanApertureHeightKey]), width > 0, height > 0
    else { return whole }
    let horizontal = attachmentNumber(aperture[kCVImageBufferCleanApertureHorizontalOffsetKey]) ?? 0
    let vertical = attachmentNumber(aperture[kCVImageBufferCleanApertureVerticalOffsetKey]) ?? 0
    return CGRect(
        x: (whole.width - width) / 2 + horizontal, y: (whole.height - height) / 2 + vertical, width: width, height: height)
}

/// The size to display the picture at, in square pixels: the `kCVImageBufferDisplayDimensionsKey`
/// attachment when there is one, else the clean aperture stretched by the pixel aspect ratio
/// (`kCVImageBufferPixelAspectRatioKey`; square pixels when there is none).
public func CVImageBufferGetDisplaySize(_ imageBuffer: CVImageBuffer) -> CGSize {
    if let display = CVBufferCopyAttachment(imageBuffer, kCVImageBufferDisplayDimensionsKey, nil) as? [String: Any],
        let width = attachmentNumber(display[kCVImageBufferDisplayWidthKey]),
        let height = attachmentNumber(display[kCVImageBufferDisplayHeightKey])
    {
        return CGSize(width: width, height: height)
    }
    var size = CVImageBufferGetCleanRect(imageBuffer).size
    if let ratio = CVBufferCopyAttachment(imageBuffer, kCVImageBufferPixelAspectRatioKey, nil) as? [String: Any],
        let horizontal = attachmentNumber(ratio[kCVImageBufferPixelAspectRatioHorizontalSpacingKey]),
        let vertical = attachmentNumber(ratio[kCVImageBufferPixelAspectRatioVerticalSpacingKey]), horizontal > 0, vertical > 0
    {
        size.width = size.width * horizontal / vertical
    }
    return size
}

/// Whether the picture is stored bottom row first. Pixel buffers here are always stored top
/// row first, as pixel buffers are on iOS, so this is false.
public func CVImageBufferIsFlipped(_ imageBuffer: CVImageBuffer) -> Bool { false }

/// A number in an attachment dictionary, given as NSNumber or any Swift number.
private func attachmentNumber(_ value: Any?) -> CGFloat? {
    switch value {
    case let number as NSNumber: CGFloat(number.doubleValue)
    case let value as Double: CGFloat(value)
    case let value as CGFloat: value
    case let value as Float: CGFloat(value)
    case let value as Int: CGFloat(value)
    case let value as Int32: CGFloat(value)
    default: nil
    }
}

// MARK: - CICP code points (ITU-T H.273)

/// The H.273 code point of a Y'CbCr matrix string; 2 ("unspecified") for nil or an unknown one.
public func CVYCbCrMatrixGetIntegerCodePointForString(_ yCbCrMatrixString: String?) -> Int32 {
    switch yCbCrMatrixString {
    case kCVImageBufferYCbCrMatrix_ITU_R_709_2: 1
    case kCVImageBufferYCbCrMatrix_ITU_R_601_4: 6
    case kCVImageBufferYCbCrMatrix_SMPTE_240M_1995: 7
    case kCVImageBufferYCbCrMatrix_ITU_R_2020: 9
    default: 2
    }
}

/// The Y'CbCr matrix string of an H.273 code point (5 and 6 are both BT.601); nil when Core
/// Video has no string for it.
public func CVYCbCrMatrixGetStringForIntegerCodePoint(_ yCbCrMatrixCodePoint: Int32) -> Unmanaged<NSString>? {
    let string: String? =
        switch yCbCrMatrixCodePoint {
        case 1: kCVImageBufferYCbCrMatrix_ITU_R_709_2
        case 5, 6: kCVImageBufferYCbCrMatrix_ITU_R_601_4
        case 7: kCVImageBufferYCbCrMatrix_SMPTE_240M_1995
        case 9: kCVImageBufferYCbCrMatrix_ITU_R_2020
        default: nil
        }
    return cicpString(string)
}

/// The H.273 code point of a colour primaries string; 2 ("unspecified") for nil or an unknown one.
public func CVColorPrimariesGetIntegerCodePointForString(_ colorPrimariesString: String?) -> Int32 {
    switch colorPrimariesString {
    case kCVImageBufferColorPrimaries_ITU_R_709_2: 1
    case kCVImageBufferColorPrimaries_EBU_3213: 5
    case kCVImageBufferColorPrimaries_SMPTE_C: 6
    case kCVImageBufferColorPrimaries_ITU_R_2020: 9
    case kCVImageBufferColorPrimaries_DCI_P3: 11
    case kCVImageBufferColorPrimaries_P3_D65: 12
    case kCVImageBufferColorPrimaries_P22: 22
    default: 2
    }
}

/// The colour primaries string of an H.273 code point; nil when Core Video has none for it.
public func CVColorPrimariesGetStringForIntegerCodePoint(_ colorPrimariesCodePoint: Int32) -> Unmanaged<NSString>? {
    let string: String? =
        switch colorPrimariesCodePoint {
        case 1: kCVImageBufferColorPrimaries_ITU_R_709_2
        case 5: kCVImageBufferColorPrimaries_EBU_3213
        case 6: kCVImageBufferColorPrimaries_SMPTE_C
        case 9: kCVImageBufferColorPrimaries_ITU_R_2020
        case 11: kCVImageBufferColorPrimaries_DCI_P3
        case 12: kCVImageBufferColorPrimaries_P3_D65
        case 22: kCVImageBufferColorPrimaries_P22
        default: nil
        }
    return cicpString(string)
}

/// The H.273 code point of a transfer function string; 2 ("unspecified") for nil, an unknown
/// one, or `UseGamma` (a gamma level has no code point).
public func CVTransferFunctionGetIntegerCodePointForString(_ transferFunctionString: String?) -> Int32 {
    switch transferFunctionString {
    case kCVImageBufferTransferFunction_ITU_R_709_2: 1
    case kCVImageBufferTransferFunction_SMPTE_240M_1995: 7
    case kCVImageBufferTransferFunction_Linear: 8
    case kCVImageBufferTransferFunction_sRGB: 13
    case kCVImageBufferTransferFunction_ITU_R_2020: 14
    case kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ: 16
    case kCVImageBufferTransferFunction_SMPTE_ST_428_1: 17
    case kCVImageBufferTransferFunction_ITU_R_2100_HLG: 18
    default: 2
    }
}

/// The transfer function string of an H.273 code point (BT.601's 6 is BT.709's curve; 14
/// and 15 are both BT.2020's); nil when Core Video has none for it.
public func CVTransferFunctionGetStringForIntegerCodePoint(_ transferFunctionCodePoint: Int32) -> Unmanaged<NSString>? {
    let string: String? =
        switch transferFunctionCodePoint {
        case 1, 6: kCVImageBufferTransferFunction_ITU_R_709_2
        case 7: kCVImageBufferTransferFunction_SMPTE_240M_1995
        case 8: kCVImageBufferTransferFunction_Linear
        case 13: kCVImageBufferTransferFunction_sRGB
        case 14, 15: kCVImageBufferTransferFunction_ITU_R_2020
        case 16: kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ
        case 17: kCVImageBufferTransferFunction_SMPTE_ST_428_1
        case 18: kCVImageBufferTransferFunction_ITU_R_2100_HLG
        default: nil
        }
    return cicpString(string)
}

/// The shared string objects the "Get" functions hand out unretained: each lives for the
/// whole process, as Core Video's constants do. Immutable after creation, so shared freely.
private struct CICPStrings: @unchecked Sendable {
    let byValue: [String: NSString]
}

private let cicpStrings = CICPStrings(byValue: {
    let all = [
        kCVImageBufferYCbCrMatrix_ITU_R_709_2, kCVImageBufferYCbCrMatrix_ITU_R_601_4, kCVImageBufferYCbCrMatrix_SMPTE_240M_1995,
        kCVImageBufferYCbCrMatrix_ITU_R_2020, kCVImageBufferColorPrimaries_EBU_3213, kCVImageBufferColorPrimaries_SMPTE_C,
        kCVImageBufferColorPrimaries_DCI_P3, kCVImageBufferColorPrimaries_P3_D65, kCVImageBufferColorPrimaries_P22,
        kCVImageBufferTransferFunction_Linear, kCVImageBufferTransferFunction_sRGB, kCVImageBufferTransferFunction_ITU_R_2020,
        kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ, kCVImageBufferTransferFunction_SMPTE_ST_428_1,
        kCVImageBufferTransferFunction_ITU_R_2100_HLG,
    ]
    return Dictionary(all.map { ($0, NSString(string: $0)) }, uniquingKeysWith: { first, _ in first })
}())

private func cicpString(_ string: String?) -> Unmanaged<NSString>? {
    guard let string, let object = cicpStrings.byValue[string] else { return nil }
    return Unmanaged.passUnretained(object)
}
