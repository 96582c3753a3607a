import CaptureCore
import ColorScience

/// The image signal processor: black-level subtraction, white-balance gains, digital gain,
/// highlight clipping, a colour-correction matrix (white-balanced camera RGB → linear sRGB),
/// the sRGB tone curve, then R'G'B' → Y'CbCr BT.709 (full or video range) with 4:2:0
/// chroma, or BGRA, written straight into the output buffer.
///
/// Two stages of lookup tables keep that to a few additions and lookups per pixel:
/// - *input* tables, one per camera channel and ADC code: the code's signal after black
///   level, gains and clipping at white, times that channel's column of the colour matrix,
///   packed as three fixed-point fields (`PackedLinearRGB`). A pixel's linear sRGB is the
///   sum of its three entries.
/// - *tone* tables, one per output channel, indexed by a field of that sum: the channel's
///   contribution to Y', Cb and Cr after clipping to 0 ... 1 and the sRGB curve, packed as
///   `PackedYCbCr` (or its 8-bit code, for BGRA). A pixel's Y'CbCr is the sum of three
///   entries, and a 2×2 chroma block the sum of four pixel sums.
///
/// Clipping each channel at white *after* white balance makes clipped highlights white,
/// not magenta. Input tables are rebuilt when a setting changes (a few thousand entries);
/// tone tables only when the output range changes or a colour matrix needs a wider index
/// span than they have. The row functions are the second half of the fused per-row pass
/// (the first is `SensorKernel.convertRow`).
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
        /// White-balanced camera RGB → linear sRGB; rows sum to 1 so white stays white.
        var colorMatrix: ColorTransform
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
    /// Per camera channel, `inputCapacity` packed linear-RGB terms.
    private let input: UnsafeMutablePointer<UInt64>
    private static let inputCapacity = 1 << 12
    /// Per output channel, `toneCapacity` packed Y'CbCr contributions / 8-bit codes. Both
    /// capacities are constants so the hot loops reach all three tables of a kind from one
    /// register (fewer registers spilled); only the entries in use are ever touched.
    private let tone: UnsafeMutablePointer<UInt64>
    private let tone8: UnsafeMutablePointer<UInt8>
    /// Linear −3.5 ... +4.5 at 4096 steps: room for any plausible colour matrix.
    private static let toneCapacity = 1 << 15
    /// The field value of linear 0, and the entries in use per tone table.
    private(set) var toneZero = 0
    private(set) var toneCount = 0
    private var toneRange: YCbCrRange?

    init() {
        input = .allocate(capacity: 3 * ISP.inputCapacity)
        input.initialize(repeating: 0, count: 3 * ISP.inputCapacity)
        // Entries past `toneCount` are never read, so their pages need never be touched.
        tone = .allocate(capacity: 3 * ISP.toneCapacity)
        tone8 = .allocate(capacity: 3 * ISP.toneCapacity)
    }

    deinit {
        input.deallocate()
        tone.deallocate()
        tone8.deallocate()
    }

    /// Rebuilds the tables if `new` differs from the settings they were built for.
    func apply(_ new: Settings) {
        guard new != settings else { return }
        precondition(new.bitDepth <= 12, "the ISP takes at most 12-bit codes")
        settings = new
        // Each output row's sum lies between its negative and positive terms at full signal.
        var negative = 0, positive = 0
        for row in 0..<3 {
            var below = 0, above = 0
            for column in 0..<3 {
                let term = Int((new.colorMatrix[row, column] * PackedLinearRGB.scale).rounded(.toNearestOrAwayFromZero))
                if term < 0 { below -= term } else { above += term }
            }
            negative = max(negative, below)
            positive = max(positive, above)
        }
        if new.range != toneRange || negative + 2 > toneZero || toneZero + positive + 2 > toneCount {
            buildToneTables(negative: negative, positive: positive, range: new.range)
        }
        buildInputTables(new)
    }

    /// Tone tables covering field values from −`negative` to +`positive` around linear 0,
    /// with a quarter of white to spare either side so nearby matrices reuse them.
    private func buildToneTables(negative: Int, positive: Int, range: YCbCrRange) {
        let spare = Int(PackedLinearRGB.scale) / 4
        toneZero = negative + spare
        toneCount = min(toneZero + positive + spare, ISP.toneCapacity)
        precondition(toneZero + positive < toneCount, "colour matrix too large for the ISP")
        toneRange = range
        let layout = PackedYCbCr(matrix: .bt709, range: range)
        ISP.encodeTable.withUnsafeBufferPointer { encode in
            for index in 0..<toneCount {
                let linear = min(max(Float(index - toneZero) / PackedLinearRGB.scale, 0), 1)
                let signal = encode[Int(linear * 65535 + 0.5)]
                for channel in 0..<3 {
                    tone[channel * ISP.toneCapacity + index] = layout.entry(channel: channel, signal: Double(signal))
                    tone8[channel * ISP.toneCapacity + index] = UInt8(signal * 255 + 0.5)
                }
            }
        }
    }

    /// Input tables for `new`.
    private func buildInputTables(_ new: Settings) {
        let codes = 1 << new.bitDepth
        let matrix = new.colorMatrix
        for channel in 0..<3 {
            // Signal per code above black, relative to white.
            let perCode = new.digitalGain * new.whiteBalance[channel] / new.whiteDN
            let column = SIMD3(matrix[0, channel], matrix[1, channel], matrix[2, channel]) * PackedLinearRGB.scale
            // The red channel's entries carry the offset that keeps every sum non-negative.
            let offset = channel == 0 ? toneZero : 0
            for code in 0..<codes {
                let signal = min(max((Float(code) - new.blackLevel) * perCode, 0), 1)
                // Rounded as above, so no term exceeds the span the tone tables cover.
                let f = (column * signal).rounded(.toNearestOrAwayFromZero)
                input[channel * ISP.inputCapacity + code] = PackedLinearRGB.pack(
                    Int(f.x) + offset, Int(f.y) + offset, Int(f.z) + offset)
            }
        }
    }

    /// The six tables a pixel goes through.
    private struct Tables {
        let inR, inG, inB: UnsafePointer<UInt64>
        let toneR, toneG, toneB: UnsafePointer<UInt64>

        /// Packed Y'CbCr of one pixel's three codes.
        @inline(__always)
        func pixel(_ r: UInt16, _ g: UInt16, _ b: UInt16) -> UInt64 {
            let s = inR[Int(r)] &+ inG[Int(g)] &+ inB[Int(b)]
            return toneR[PackedLinearRGB.red(s)] &+ toneG[PackedLinearRGB.green(s)] &+ toneB[PackedLinearRGB.blue(s)]
        }
    }

    @inline(__always)
    private var tables: Tables {
        Tables(
            inR: UnsafePointer(input), inG: UnsafePointer(input + ISP.inputCapacity),
            inB: UnsafePointer(input + 2 * ISP.inputCapacity), toneR: UnsafePointer(tone),
            toneG: UnsafePointer(tone + ISP.toneCapacity), toneB: UnsafePointer(tone + 2 * ISP.toneCapacity))
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
        let t = tables
        let gA = rawA + width, bA = rawA + 2 * width
        let gB = rawB + width, bB = rawB + 2 * width
        // Without a row B, row A's luma is written twice: cheaper than a branch.
        let outB = lumaB ?? lumaA
        var x = 0, c = 0
        while x + 1 < width {
            let p0 = t.pixel(rawA[x], gA[x], bA[x])
            let p1 = t.pixel(rawA[x + 1], gA[x + 1], bA[x + 1])
            let p2 = t.pixel(rawB[x], gB[x], bB[x])
            let p3 = t.pixel(rawB[x + 1], gB[x + 1], bB[x + 1])
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
            let p0 = t.pixel(rawA[x], gA[x], bA[x])
            let p2 = t.pixel(rawB[x], gB[x], bB[x])
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
        let t = tables
        let lr = UnsafePointer(tone8), lg = UnsafePointer(tone8 + ISP.toneCapacity)
        let lb = UnsafePointer(tone8 + 2 * ISP.toneCapacity)
        let g = raw + width, b = raw + 2 * width
        let pixels = out.assumingMemoryBound(to: UInt32.self)
        for x in 0..<width {
            let s = t.inR[Int(raw[x])] &+ t.inG[Int(g[x])] &+ t.inB[Int(b[x])]
            let red = UInt32(lr[PackedLinearRGB.red(s)])
            let green = UInt32(lg[PackedLinearRGB.green(s)])
            let blue = UInt32(lb[PackedLinearRGB.blue(s)])
            // Little-endian memory order B, G, R, A.
            pixels[x] = blue | green << 8 | red << 16 | 0xFF00_0000
        }
    }
}
