import CRenderKernels
import CaptureCore
import ColorScience

/// The image signal processor: black-level subtraction, white-balance gains, digital gain,
/// highlight clipping, a colour-correction matrix (white-balanced camera RGB → linear
/// output RGB), the sRGB tone curve (or HLG's), then R'G'B' → Y'CbCr BT.709 (BT.2020 for
/// HLG; full or video range, 8 or 10 bits) with 4:2:0 chroma (each 2×2 block's mean
/// R'G'B'), or BGRA, written straight into the output buffer.
///
/// Clipping each channel at white *after* white balance makes clipped highlights white,
/// not magenta. The per-pixel work is floating point in C (`oc_isp_row_pair_420` and
/// `oc_isp_row_bgra` in CRenderKernels, compiled for baseline x86-64, AVX2 and AVX-512
/// with the best chosen at load time); the sRGB curve there is a pair of polynomials for
/// log₂ and exp₂, within 0.04 of an 8-bit code. This class turns `Settings` into the
/// kernels' coefficients. The row functions are the second half of the fused per-row pass
/// (the first is `SensorKernel.convertRow`).
final class ISP: @unchecked Sendable {
    /// What the coefficients depend on.
    struct Settings: Sendable, Equatable {
        var bitDepth: Int
        var blackLevel: Float
        /// DN above black that maps to white at unity gains.
        var whiteDN: Float
        var digitalGain: Float
        /// White-balance gains, red / green / blue.
        var whiteBalance: SIMD3<Float>
        /// White-balanced camera RGB → linear sRGB; rows sum to 1 so white stays white.
        var colorMatrix: ColorTransform
        /// The Y'CbCr code range of the output (BGRA ignores it).
        var range: YCbCrRange
        /// Bits per output sample: 8, or 10 for 'x420'/'xf20' (BGRA is always 8).
        var outputBitDepth = 8
        /// HLG (BT.2100): the HLG curve and the BT.2020 Y'CbCr matrix instead of sRGB and
        /// BT.709. The colour matrix must already target BT.2020 primaries.
        var hlg = false
    }

    /// The Y'CbCr range a pixel format is written in (BGRA counts as full range).
    static func range(of format: PixelFormat) -> YCbCrRange {
        format.isFullRange ? .full : .video
    }

    private(set) var settings: Settings?
    /// The kernels' coefficients, at a fixed address so the per-row calls pass a pointer.
    private let coefficients: UnsafeMutablePointer<oc_isp_coefficients>

    init() {
        coefficients = .allocate(capacity: 1)
        coefficients.initialize(to: oc_isp_coefficients())
    }

    deinit {
        coefficients.deallocate()
    }

    /// Recomputes the coefficients if `new` differs from the settings they were made for.
    func apply(_ new: Settings) {
        guard new != settings else { return }
        precondition(new.bitDepth <= 16, "the ISP takes at most 16-bit codes")
        settings = new
        let gains = new.whiteBalance * (new.digitalGain / new.whiteDN)
        let m = new.colorMatrix
        let yuv = new.hlg ? YCbCrMatrix.bt2020 : YCbCrMatrix.bt709
        let bits = new.outputBitDepth
        let luma = SIMD3<Float>(yuv.lumaCoefficients * new.range.lumaScale(bitDepth: bits))
        let cb = SIMD3<Float>(yuv.cbCoefficients * new.range.chromaScale(bitDepth: bits))
        let cr = SIMD3<Float>(yuv.crCoefficients * new.range.chromaScale(bitDepth: bits))
        coefficients.pointee = oc_isp_coefficients(
            black: new.blackLevel, gain: (gains.x, gains.y, gains.z),
            // Spelled out: settings change while streaming, and an array would allocate.
            matrix: (m[0, 0], m[0, 1], m[0, 2], m[1, 0], m[1, 1], m[1, 2], m[2, 0], m[2, 1], m[2, 2]),
            luma: (luma.x, luma.y, luma.z), cb: (cb.x, cb.y, cb.z), cr: (cr.x, cr.y, cr.z),
            // Plus one half: the kernels truncate.
            luma_offset: Float(new.range.lumaOffset(bitDepth: bits)) + 0.5,
            chroma_offset: Float(new.range.chromaOffset(bitDepth: bits)) + 0.5, curve: new.hlg ? 1 : 0)
    }

    /// Encodes two rows of sensor codes (each R, G, B runs of `width`) into 4:2:0 Y'CbCr.
    /// `lumaB` is nil for the last row of an odd-height image (then `rawB` is row A again).
    /// `chromaStep` is 2 for interleaved CbCr (NV12; `cr` = `cb` + 1) and 1 for planar.
    /// `prefetch` names memory the next call will read (the next rows' static layer), which
    /// is fetched into cache while this pair is encoded.
    @inline(__always)
    func encodeRowPair(
        _ rawA: UnsafePointer<UInt16>, _ rawB: UnsafePointer<UInt16>, width: Int,
        lumaA: UnsafeMutablePointer<UInt8>, lumaB: UnsafeMutablePointer<UInt8>?,
        cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, chromaStep: Int,
        prefetch: UnsafeRawBufferPointer? = nil
    ) {
        precondition(chromaStep == 1 || (chromaStep == 2 && cr == cb + 1), "chroma is planar (step 1) or NV12 (step 2, cr = cb + 1)")
        // Without a row B, row A's luma is written twice: cheaper than a branch.
        oc_isp_row_pair_420(
            coefficients, rawA, rawB, width, lumaA, lumaB ?? lumaA, cb, cr, chromaStep, prefetch?.baseAddress,
            prefetch?.count ?? 0)
    }

    /// Encodes two rows of sensor codes into 10-bit 4:2:0 Y'CbCr ('x420'/'xf20': 16-bit
    /// words holding value << 6, luma then interleaved CbCr), as `encodeRowPair` does; the
    /// settings' `outputBitDepth` must be 10.
    @inline(__always)
    func encodeRowPair10(
        _ rawA: UnsafePointer<UInt16>, _ rawB: UnsafePointer<UInt16>, width: Int,
        lumaA: UnsafeMutablePointer<UInt16>, lumaB: UnsafeMutablePointer<UInt16>?, cbcr: UnsafeMutablePointer<UInt16>,
        prefetch: UnsafeRawBufferPointer? = nil
    ) {
        oc_isp_row_pair_420_10(
            coefficients, rawA, rawB, width, lumaA, lumaB ?? lumaA, cbcr, prefetch?.baseAddress, prefetch?.count ?? 0)
    }

    /// Encodes one row of sensor codes into BGRA (alpha 255), fetching `prefetch` as
    /// `encodeRowPair` does.
    @inline(__always)
    func encodeBGRA(
        _ raw: UnsafePointer<UInt16>, width: Int, into out: UnsafeMutableRawPointer, prefetch: UnsafeRawBufferPointer? = nil
    ) {
        oc_isp_row_bgra(
            coefficients, raw, width, out.assumingMemoryBound(to: UInt8.self), prefetch?.baseAddress, prefetch?.count ?? 0)
    }

    /// The tone curve the kernels apply (linear 0 ... 1 → sRGB-encoded), for tests.
    static func encode(_ linear: Float) -> Float {
        oc_srgb_encode(linear)
    }

    /// The HLG curve the kernels apply (linear 0 ... 1 → HLG signal), for tests.
    static func encodeHLG(_ linear: Float) -> Float {
        oc_hlg_encode(linear)
    }
}
