import CaptureCore
import ColorScience

/// The image signal processor: black-level subtraction, white balance, digital gain, the
/// sRGB tone curve, then R'G'B' → Y'CbCr BT.709 (full or video range) with 4:2:0 chroma,
/// or BGRA, written straight into the output buffer.
///
/// Everything up to the tone curve is per channel and per ADC code, so it folds into one
/// lookup table per channel (2^bitDepth entries of R' × `one`), rebuilt only when a setting
/// changes. The row functions are the second half of the fused per-row pass (the first
/// is `Sensor.convertRow`).
final class ISP: @unchecked Sendable {
    /// Fixed-point R'G'B' of white.
    static let one: Int32 = 4096

    /// What the lookup tables depend on.
    struct Settings: Sendable, Equatable {
        var bitDepth: Int
        var blackLevel: Float
        /// DN above black that maps to white at unity gains.
        var whiteDN: Float
        var digitalGain: Float
        /// White-balance gains, red / green / blue.
        var whiteBalance: SIMD3<Float>
    }

    /// sRGB encode of linear 0 ... 1 in 65 536 steps, as R' × `one`; shared by every ISP.
    private static let encodeTable: [UInt16] = (0...65535).map { index in
        let signal = TransferFunction.sRGB.encode(Double(index) / 65535)
        return UInt16((signal * Double(one)).rounded())
    }

    private(set) var settings: Settings?
    /// Tone-curve tables for R, G, B, each `capacity` entries, as R' × `one`.
    private(set) var tone: UnsafeMutablePointer<UInt16>
    /// The same as 8-bit codes, for BGRA.
    private(set) var tone8: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 12

    init() {
        tone = .allocate(capacity: 3 * capacity)
        tone8 = .allocate(capacity: 3 * capacity)
        tone.initialize(repeating: 0, count: 3 * capacity)
        tone8.initialize(repeating: 0, count: 3 * capacity)
    }

    deinit {
        tone.deallocate()
        tone8.deallocate()
    }

    /// The table of channel `channel` (0 R, 1 G, 2 B).
    @inline(__always)
    func toneTable(_ channel: Int) -> UnsafePointer<UInt16> { UnsafePointer(tone + channel * capacity) }

    @inline(__always)
    func toneTable8(_ channel: Int) -> UnsafePointer<UInt8> { UnsafePointer(tone8 + channel * capacity) }

    /// Rebuilds the tables if `new` differs from the settings they were built for.
    func apply(_ new: Settings) {
        guard new != settings else { return }
        precondition(new.bitDepth <= 12, "the ISP takes at most 12-bit codes")
        settings = new
        let codes = 1 << new.bitDepth
        ISP.encodeTable.withUnsafeBufferPointer { encode in
            for channel in 0..<3 {
                // Linear output per code above black, scaled to the encode table's index.
                let perCode = new.digitalGain * new.whiteBalance[channel] / new.whiteDN * 65535
                for code in 0..<codes {
                    let linear = min(max((Float(code) - new.blackLevel) * perCode, 0), 65535)
                    let value = encode[Int(linear + 0.5)]
                    tone[channel * capacity + code] = value
                    tone8[channel * capacity + code] = UInt8((Int32(value) * 255 + ISP.one / 2) / ISP.one)
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
        cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, chromaStep: Int, encoder e: YCbCrEncoder
    ) {
        let lr = toneTable(0), lg = toneTable(1), lb = toneTable(2)
        let gA = rawA + width, bA = rawA + 2 * width
        let gB = rawB + width, bB = rawB + 2 * width
        let outB = lumaB ?? lumaA
        let pairs = width / 2
        for pair in 0..<pairs {
            let x = 2 * pair
            let r0 = Int32(lr[Int(rawA[x])]), g0 = Int32(lg[Int(gA[x])]), b0 = Int32(lb[Int(bA[x])])
            let r1 = Int32(lr[Int(rawA[x + 1])]), g1 = Int32(lg[Int(gA[x + 1])]), b1 = Int32(lb[Int(bA[x + 1])])
            let r2 = Int32(lr[Int(rawB[x])]), g2 = Int32(lg[Int(gB[x])]), b2 = Int32(lb[Int(bB[x])])
            let r3 = Int32(lr[Int(rawB[x + 1])]), g3 = Int32(lg[Int(gB[x + 1])]), b3 = Int32(lb[Int(bB[x + 1])])
            lumaA[x] = e.luma(r0, g0, b0)
            lumaA[x + 1] = e.luma(r1, g1, b1)
            // Written unconditionally (to row A again when there is no row B): cheaper
            // than a branch, and row A's value is the same.
            outB[x] = e.luma(r2, g2, b2)
            outB[x + 1] = e.luma(r3, g3, b3)
            let rs = r0 &+ r1 &+ r2 &+ r3, gs = g0 &+ g1 &+ g2 &+ g3, bs = b0 &+ b1 &+ b2 &+ b3
            cb[pair * chromaStep] = e.cb(rs, gs, bs)
            cr[pair * chromaStep] = e.cr(rs, gs, bs)
        }
        if width & 1 == 1 {
            // The last column of an odd width: its chroma block is one column wide, so
            // count each sample twice.
            let x = width - 1
            let r0 = Int32(lr[Int(rawA[x])]), g0 = Int32(lg[Int(gA[x])]), b0 = Int32(lb[Int(bA[x])])
            let r2 = Int32(lr[Int(rawB[x])]), g2 = Int32(lg[Int(gB[x])]), b2 = Int32(lb[Int(bB[x])])
            lumaA[x] = e.luma(r0, g0, b0)
            outB[x] = e.luma(r2, g2, b2)
            let rs = 2 &* (r0 &+ r2), gs = 2 &* (g0 &+ g2), bs = 2 &* (b0 &+ b2)
            cb[pairs * chromaStep] = e.cb(rs, gs, bs)
            cr[pairs * chromaStep] = e.cr(rs, gs, bs)
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
