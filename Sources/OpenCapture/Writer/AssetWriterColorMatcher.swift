import CaptureCore
import ColorScience
import Foundation
import ImageOps
import MediaIO

/// Puts the frames of an asset writer input whose settings have `AVVideoColorPropertiesKey`
/// into that colour, as Apple's writer does ("If the source and destination color properties
/// differ, AVFoundation matches the color. You must tag the source."). Used on the writer's
/// queue only.
///
/// A frame's colour is its Core Video tags (primaries, transfer function, Y'CbCr matrix;
/// untagged is BT.709, the simulated cameras' default, and a BGRA frame has no matrix).
/// - Same primaries and matrix: the frame is encoded as it is, under the asked tags.
/// - Another matrix only: Y'CbCr is decoded with the frame's matrix and encoded with the
///   asked one (BGRA is encoded with it directly).
/// - Other primaries: each pixel goes to linear light, through the gamut matrix between the
///   two sets of primaries (all D65 here) and back, by lookup tables.
///
/// The SDR transfer functions (BT.709, sRGB, BT.2020) are taken as one display gamma and are
/// re-tagged, not re-curved: every camera here hands out display-referred pictures, and the
/// curves' own differences are their encoders' business, not the picture's. Linear converts
/// with its curve. HDR (HLG, PQ) frames are written only with their own transfer function,
/// and 10-bit frames only when no conversion is needed: tone mapping and 10-bit conversion
/// are not done, and such a frame fails the writer with the reason.
final class AssetWriterColorMatcher: @unchecked Sendable {  // used on the writer's queue only
    let target: MovieColorTags
    /// The 4:2:0 layout the track's encoder takes, which converted frames are made in.
    let yuvFormat: PixelFormat
    private var rgb: CVBuffer?
    private var yuv: CVBuffer?
    private var table: (source: SourceColor, lookup: GamutLookup?)?

    init(target: MovieColorTags, yuvFormat: PixelFormat) {
        self.target = target
        self.yuvFormat = yuvFormat
    }

    /// The colour a frame says it is in.
    struct SourceColor: Equatable {
        var primaries: String
        var transferFunction: String
        var matrix: String?
    }

    /// `buffer` in the target colour, as an 8-bit 4:2:0 buffer of `yuvFormat` when it had to
    /// be converted; `buffer` itself when it already is.
    func match(_ buffer: CVPixelBuffer) throws(MovieWriterError) -> CVPixelBuffer {
        let source = Self.color(of: buffer)
        let lookup = try gamutLookup(from: source)
        let matrixDiffers = source.matrix.map { $0 != target.matrix } ?? (target.matrix != kCVImageBufferYCbCrMatrix_ITU_R_709_2)
        guard lookup != nil || matrixDiffers else { return buffer }
        guard !buffer.format.isTenBit, !buffer.format.isBayer else {
            throw .invalidSettings("cannot convert 10-bit frames to the asked colour properties")
        }
        // BGRA to encode from: the frame itself when only the matrix changes; else the
        // frame's gamut-converted pixels (read from the frame, or from its decoded Y'CbCr).
        var picture = buffer
        if buffer.format != .bgra || lookup != nil {
            let scratch = reuse(&rgb, format: .bgra, like: buffer)
            var converted = buffer
            if buffer.format != .bgra {
                guard ImageTransform.transform(buffer, into: scratch, rotation: .none, mirrored: false) else {
                    throw .invalidSettings("cannot decode a \(buffer.format) frame")
                }
                converted = scratch
            }
            lookup?.apply(from: converted, into: scratch)
            picture = scratch
        }
        let output = reuse(&yuv, format: yuvFormat, like: buffer)
        let (kr, kb) = Self.weights(target.matrix)
        guard ImageTransform.encode(bgra: picture, into: output, kr: kr, kb: kb) else {
            throw .invalidSettings("cannot encode a frame in \(yuvFormat)")
        }
        output.attachmentStore.withLock {
            $0[kCVImageBufferColorPrimariesKey] = target.primaries
            $0[kCVImageBufferTransferFunctionKey] = target.transferFunction
            $0[kCVImageBufferYCbCrMatrixKey] = target.matrix
        }
        return output
    }

    /// The frame's tags; BT.709 where it has none.
    static func color(of buffer: CVPixelBuffer) -> SourceColor {
        buffer.attachmentStore.withLock { tags in
            SourceColor(
                primaries: tags[kCVImageBufferColorPrimariesKey] as? String ?? kCVImageBufferColorPrimaries_ITU_R_709_2,
                transferFunction: tags[kCVImageBufferTransferFunctionKey] as? String ?? kCVImageBufferTransferFunction_ITU_R_709_2,
                matrix: buffer.format == .bgra ? nil : tags[kCVImageBufferYCbCrMatrixKey] as? String ?? kCVImageBufferYCbCrMatrix_ITU_R_709_2)
        }
    }

    /// The per-pixel conversion from `source`'s primaries and curve to the target's, nil when
    /// there is none to make; made once per source colour.
    private func gamutLookup(from source: SourceColor) throws(MovieWriterError) -> GamutLookup? {
        let key = SourceColor(primaries: source.primaries, transferFunction: source.transferFunction, matrix: nil)
        if let table, table.source == key { return table.lookup }
        let hdr = [kCVImageBufferTransferFunction_ITU_R_2100_HLG, kCVImageBufferTransferFunction_SMPTE_ST_2084_PQ]
        if source.transferFunction != target.transferFunction,
            hdr.contains(source.transferFunction) || hdr.contains(target.transferFunction)
        {
            throw .invalidSettings("cannot convert \(source.transferFunction) frames to \(target.transferFunction) (no tone mapping)")
        }
        let from = Self.curve(source.transferFunction), to = Self.curve(target.transferFunction)
        let sameCurve = from == to || hdr.contains(source.transferFunction)
        let lookup: GamutLookup?
        if source.primaries == target.primaries && sameCurve {
            lookup = nil
        } else {
            guard let sourcePrimaries = Self.primaries(source.primaries), let targetPrimaries = Self.primaries(target.primaries) else {
                throw .invalidSettings("cannot convert \(source.primaries) primaries to \(target.primaries)")
            }
            let matrix = RGBColorSpace(primaries: sourcePrimaries, transferFunction: from)
                .conversionMatrix(to: RGBColorSpace(primaries: targetPrimaries, transferFunction: to))
            lookup = GamutLookup(decode: from, matrix: matrix, encode: to)
        }
        table = (key, lookup)
        return lookup
    }

    /// The curve a transfer function tag is converted by: the SDR ones as one display gamma
    /// (sRGB's), linear as linear.
    static func curve(_ name: String) -> TransferFunction {
        switch name {
        case kCVImageBufferTransferFunction_Linear: .linear
        case kCVImageBufferTransferFunction_ITU_R_2100_HLG: .hlg
        default: .sRGB
        }
    }

    static func primaries(_ name: String) -> RGBPrimaries? {
        switch name {
        case kCVImageBufferColorPrimaries_ITU_R_709_2: .bt709
        case kCVImageBufferColorPrimaries_P3_D65: .displayP3
        case kCVImageBufferColorPrimaries_ITU_R_2020: .bt2020
        case kCVImageBufferColorPrimaries_SMPTE_C: .smpteC
        case kCVImageBufferColorPrimaries_EBU_3213: .ebu3213
        default: nil
        }
    }

    /// A matrix tag's luma weights of red and blue.
    static func weights(_ matrix: String) -> (kr: Double, kb: Double) {
        switch matrix {
        case kCVImageBufferYCbCrMatrix_ITU_R_601_4: (YCbCrMatrix.bt601.kr, YCbCrMatrix.bt601.kb)
        case kCVImageBufferYCbCrMatrix_ITU_R_2020: (YCbCrMatrix.bt2020.kr, YCbCrMatrix.bt2020.kb)
        case kCVImageBufferYCbCrMatrix_SMPTE_240M_1995: (0.212, 0.087)
        default: (YCbCrMatrix.bt709.kr, YCbCrMatrix.bt709.kb)
        }
    }

    private func reuse(_ slot: inout CVBuffer?, format: PixelFormat, like buffer: CVPixelBuffer) -> CVBuffer {
        if let existing = slot, existing.format == format, existing.width == buffer.width, existing.height == buffer.height {
            return existing
        }
        let made = CVBuffer(format: format, width: buffer.width, height: buffer.height)
        slot = made
        return made
    }
}

extension RGBPrimaries {
    /// SMPTE C (SMPTE RP 145, SD NTSC), D65 white.
    static let smpteC = RGBPrimaries(
        red: Chromaticity(x: 0.630, y: 0.340), green: Chromaticity(x: 0.310, y: 0.595), blue: Chromaticity(x: 0.155, y: 0.070),
        white: RGBPrimaries.bt709.white)
    /// EBU Tech. 3213 (SD PAL), D65 white.
    static let ebu3213 = RGBPrimaries(
        red: Chromaticity(x: 0.640, y: 0.330), green: Chromaticity(x: 0.290, y: 0.600), blue: Chromaticity(x: 0.150, y: 0.060),
        white: RGBPrimaries.bt709.white)
}
