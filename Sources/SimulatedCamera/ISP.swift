import CaptureCore
import ColorScience

/// The image signal processor: black-level subtraction, white balance, digital gain, the
/// sRGB tone curve, then R'G'B' → Y'CbCr BT.709 (full or video range) with 4:2:0 chroma,
/// or BGRA, written straight into the output buffer.
///
/// Everything is per channel and per ADC code up to the colour matrix, which is linear,
/// so each channel gets one lookup table (2^bitDepth entries) that holds that channel's
/// *contribution* to Y', Cb and Cr, packed as fixed-point fields of one 64-bit word
/// (`PackedYCbCr`). A pixel's Y'CbCr is then the sum of three table entries, and a 2×2
/// chroma block the sum of four pixel sums: two additions per pixel instead of nine
/// multiplications. Tables are rebuilt only when a setting changes. The row functions
/// are the second half of the fused per-row pass (the first is `SensorKernel.convertRow`).
final class ISP: @unchecked Sendable {
    /// What the lookup tables depend on.
    struct Settings: Sendable, Equatable {
        var bitDepth: Int
        var blackLevel: Float
        /// DN above black that maps to white at unity gains.
        var whiteDN: Float
        var digitalGain: Float
        /// White-balance gains, red / green / blue.
        var whiteBalance: SIMD3<Float>
        /// The Y'CbCr code range of the output (BGRA ignores it).
        var range: YCbCrRange
    }

    /// The Y'CbCr range a pixel format is written in (BGRA counts as full range).
    static func range(of format: PixelFormat) -> YCbCrRange {
        format.isFullRange ? .full : .video
    }

    /// sRGB encode of linear 0 ... 1 in 65 536 steps; shared by every ISP.
    private static let encodeTable: [Float] = (0...65535).map {
        Float(TransferFunction.sRGB.encode(Double($0) / 65535))
    }

    private(set) var settings: Settings?
    /// Per channel (R, G, B), `capacity` packed Y'CbCr contributions each.
    private let packed: UnsafeMutablePointer<UInt64>
    /// Per channel, `capacity` 8-bit R', G' or B' codes, for BGRA.
    private let tone8: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 12

    init() {
        packed = .allocate(capacity: 3 * capacity)
        tone8 = .allocate(capacity: 3 * capacity)
        packed.initialize(repeating: 0, count: 3 * capacity)
        tone8.initialize(repeating: 0, count: 3 * capacity)
    }

    deinit {
        packed.deallocate()
        tone8.deallocate()
    }

    /// The packed table of channel `channel` (0 R, 1 G, 2 B).
    @inline(__always)
    func packedTable(_ channel: Int) -> UnsafePointer<UInt64> { UnsafePointer(packed + channel * capacity) }

    /// The 8-bit tone table of channel `channel`.
    @inline(__always)
    func toneTable8(_ channel: Int) -> UnsafePointer<UInt8> { UnsafePointer(tone8 + channel * capacity) }

    /// Rebuilds the tables if `new` differs from the settings they were built for.
    func apply(_ new: Settings) {
        guard new != settings else { return }
        precondition(new.bitDepth <= 12, "the ISP takes at most 12-bit codes")
        settings = new
        let codes = 1 << new.bitDepth
        let layout = PackedYCbCr(matrix: .bt709, range: new.range)
        ISP.encodeTable.withUnsafeBufferPointer { encode in
            for channel in 0..<3 {
                // Linear output per code above black, scaled to the encode table's index.
                let perCode = new.digitalGain * new.whiteBalance[channel] / new.whiteDN * 65535
                for code in 0..<codes {
                    let linear = min(max((Float(code) - new.blackLevel) * perCode, 0), 65535)
                    let signal = encode[Int(linear + 0.5)]
                    packed[channel * capacity + code] = layout.entry(channel: channel, signal: Double(signal))
                    tone8[channel * capacity + code] = UInt8(signal * 255 + 0.5)
                }
            }
        }
    }

    /// Encodes two rows of sensor codes (each R, G, B runs of `width`) into 4:2:0 Y'CbCr.
    /// `lumaB` is nil for the last row of an odd-height image (then `rawB` is row A again).
    /// `chromaStep` is 2 for interleaved CbCr (NV12; `cr` = `cb` + 1) and 1 for planar.
    @inline(__always)
    func encodeRowPair(
        _ rawA: UnsafePointer<UInt16>, _ rawB: UnsafePointer<UInt16>, width: Int,
        lumaA: UnsafeMutablePointer<UInt8>, lumaB: UnsafeMutablePointer<UInt8>?,
        cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, chromaStep: Int, layout: PackedYCbCr
    ) {
        let tr = packedTable(0), tg = packedTable(1), tb = packedTable(2)
        let gA = rawA + width, bA = rawA + 2 * width
        let gB = rawB + width, bB = rawB + 2 * width
        // Without a row B, row A's luma is written twice: cheaper than a branch.
        let outB = lumaB ?? lumaA
        var x = 0, c = 0
        while x + 1 < width {
            let p0 = tr[Int(rawA[x])] &+ tg[Int(gA[x])] &+ tb[Int(bA[x])]
            let p1 = tr[Int(rawA[x + 1])] &+ tg[Int(gA[x + 1])] &+ tb[Int(bA[x + 1])]
            let p2 = tr[Int(rawB[x])] &+ tg[Int(gB[x])] &+ tb[Int(bB[x])]
            let p3 = tr[Int(rawB[x + 1])] &+ tg[Int(gB[x + 1])] &+ tb[Int(bB[x + 1])]
            lumaA[x] = layout.luma(p0)
            lumaA[x + 1] = layout.luma(p1)
            outB[x] = layout.luma(p2)
            outB[x + 1] = layout.luma(p3)
            let block = p0 &+ p1 &+ p2 &+ p3
            cb[c] = layout.cb(block)
            cr[c] = layout.cr(block)
            x &+= 2
            c &+= chromaStep
        }
        if x < width {
            // The last column of an odd width: a one-column block counts each sample twice.
            let p0 = tr[Int(rawA[x])] &+ tg[Int(gA[x])] &+ tb[Int(bA[x])]
            let p2 = tr[Int(rawB[x])] &+ tg[Int(gB[x])] &+ tb[Int(bB[x])]
            lumaA[x] = layout.luma(p0)
            outB[x] = layout.luma(p2)
            let block = (p0 &+ p2) &<< 1
            cb[c] = layout.cb(block)
            cr[c] = layout.cr(block)
        }
    }

    /// Encodes one row of sensor codes into BGRA (alpha 255).
    @inline(__always)
    func encodeBGRA(_ raw: UnsafePointer<UInt16>, width: Int, into out: UnsafeMutableRawPointer) {
        let lr = toneTable8(0), lg = toneTable8(1), lb = toneTable8(2)
        let g = raw + width, b = raw + 2 * width
        let pixels = out.assumingMemoryBound(to: UInt32.self)
        for x in 0..<width {
            let blue = UInt32(lb[Int(b[x])]), green = UInt32(lg[Int(g[x])]), red = UInt32(lr[Int(raw[x])])
            // Little-endian memory order B, G, R, A.
            pixels[x] = blue | green << 8 | red << 16 | 0xFF00_0000
        }
    }
}
