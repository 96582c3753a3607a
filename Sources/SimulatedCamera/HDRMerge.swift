import Foundation

/// Video HDR as a staggered two-exposure sensor does it: each frame reads a long exposure
/// (the one auto exposure chose) and a short one, `ratio` (16, 4 EV) times shorter, each
/// with its own photon shot noise, dark current and read noise from the same sensor model;
/// the two are merged into one linear signal and a tone curve compresses it back into the
/// sensor's code range, before the ISP.
///
/// Per pixel and channel, with s = code − black:
/// - linear = s_long, blended toward ratio·s_short over the top quarter below the long
///   exposure's clip level (so the seam is soft and clipped long samples are never used);
/// - x = linear / W, where W is the signal the ISP maps to white, so x = 1 is diffuse white
///   and the merged range reaches x = ratio · clip / W (about 15);
/// - a global tone curve T(x) = ln(1 + a·x) / ln(1 + a·X_max), a = 8: mid-grey stays where it
///   was (T(0.18) ≈ 0.185), shadows gain about 1.7× (0.7 EV) and highlights up to X_max fit
///   under white. It is applied as one gain for the pixel's three channels, from its
///   largest, so hues do not shift;
/// - code = black + W·T(x), rounded and clipped to the ADC range.
///
/// The ISP then sees an ordinary frame. The long and short exposures are taken back to back
/// within the frame (a staggered readout), as phone sensors do; the short one adds
/// 1/`ratio` to the exposure time and the sensor's readout work doubles (`ThermalModel`).
final class HDRMerge: @unchecked Sendable {
    /// Long / short exposure time.
    static let ratio: Float = 16
    /// The tone curve's shadow lift.
    static let curve: Float = 8
    /// Entries in the gain table over 0 ... the merged maximum.
    static let tableSize = 4096

    /// The short exposure's sensor coefficients.
    private(set) var shortExposure: SensorExposure
    private var black: Float = 0
    private var clip: Float = 1
    private var maxCode: Float = 0
    /// Gain (output signal / linear signal) by linear signal, `tableSize` steps to `top`.
    private let gains: UnsafeMutablePointer<Float>
    private var tableScale: Float = 0
    private var key: (SensorExposure, Float)?

    init(shortExposure: SensorExposure) {
        self.shortExposure = shortExposure
        gains = .allocate(capacity: HDRMerge.tableSize + 1)
    }

    deinit { gains.deallocate() }

    /// Sets up the merge for a frame taken with `long` and `short` (the same sensor and
    /// light, 1/`ratio` of the exposure time); the table is rebuilt only when they change.
    func prepare(long: SensorExposure, short: SensorExposure) {
        shortExposure = short
        if let key, key.0 == long, key.1 == short.dnPerUnit.y { return }
        key = (long, short.dnPerUnit.y)
        black = long.blackLevel
        maxCode = long.maxCode
        // Long samples at or above this are near or at saturation.
        clip = 0.95 * (min(long.fullWellDN + long.blackLevel, long.maxCode) - long.blackLevel)
        let white = long.whiteDN / max(long.digitalGain, 1e-6)
        let top = clip * HDRMerge.ratio
        let xMax = top / white
        let a = HDRMerge.curve
        let norm = 1 / log1p(a * xMax)
        tableScale = Float(HDRMerge.tableSize) / top
        for i in 0...HDRMerge.tableSize {
            // Gain at the centre of the step (at 0, the curve's slope).
            let x = max(Float(i) + 0.5, 0.5) / tableScale / white
            gains[i] = log1p(a * x) * norm / x
        }
    }

    /// Merges one row: `long` (R, G, B runs of `width` codes) is overwritten with the merged,
    /// tone-mapped codes; `short` is the same row of the short exposure. Returns how many
    /// pixels had a long sample at or above the clip level. Channels are spelled out (no
    /// SIMD3 subscripts, no `rounded()`): this loop runs for every pixel of an HDR frame.
    func merge(_ long: UnsafeMutablePointer<UInt16>, short: UnsafePointer<UInt16>, width: Int) -> Int {
        let ratio = HDRMerge.ratio, black = self.black, clip = self.clip, top = maxCode + 0.5
        let blendStart = 0.75 * clip, blendScale = 1 / (0.25 * clip)
        let last = Float(HDRMerge.tableSize), scale = tableScale, gains = UnsafePointer(self.gains)
        let rL = long, gL = long + width, bL = long + 2 * width
        let rS = short, gS = short + width, bS = short + 2 * width
        // Long signal blended toward the scaled short one near the clip level.
        @inline(__always) func blend(_ l: UInt16, _ s: UInt16) -> (Float, Float) {
            let sLong = Float(l) - black
            let sShort = (Float(s) - black) * ratio
            let w = Swift.min(Swift.max((sLong - blendStart) * blendScale, 0), 1)
            return (Swift.max(sLong + w * (sShort - sLong), 0), sLong)
        }
        var clipped = 0
        for x in 0..<width {
            let (r, lr) = blend(rL[x], rS[x])
            let (g, lg) = blend(gL[x], gS[x])
            let (b, lb) = blend(bL[x], bS[x])
            if Swift.max(lr, Swift.max(lg, lb)) >= clip { clipped &+= 1 }
            let m = Swift.max(r, Swift.max(g, b))
            let gain = gains[Int(Swift.min(m * scale, last))]
            // Adding ½ and truncating rounds a non-negative value.
            rL[x] = UInt16(Swift.min(black + r * gain + 0.5, top))
            gL[x] = UInt16(Swift.min(black + g * gain + 0.5, top))
            bL[x] = UInt16(Swift.min(black + b * gain + 0.5, top))
        }
        return clipped
    }
}
