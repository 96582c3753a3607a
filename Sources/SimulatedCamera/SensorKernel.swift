/// The sensor's per-pixel arithmetic, the hot loop of the renderer: relative radiance and
/// a noise sample in, ADC code out, for one channel of one row.
///
/// code = clip(round(black + min(μ + σ·n, full well)), 0, max), where μ = s·dnPerUnit +
/// dark is the mean signal in DN, σ² = K·μ + K²σr² its variance (EMVA 1288: the shot-noise
/// variance in DN is K times the mean) and n a sample of the noise table.
///
/// Written for the 4-lane vector unit of baseline x86-64 and arm64: 8 samples per step,
/// loaded as four 32-bit lanes and split into even and odd samples with a shift and a mask
/// (the static layer's bfloat16 samples become floats that way, with no conversion), σ by
/// `squareRoot`, clipping by lane-wise min/max and rounding by adding 1.5·2²³; all because
/// Swift's generic SIMD conversions, `squareRoot()` and `pointwiseMin` run lane by lane.
/// The offsets dark + black are folded into the clip bounds and the rounding constant.
struct SensorKernel {
    private let scale, varianceScale, varianceOffset, low, high, rounding: SIMD4<Float>

    /// 1.5·2²³: added to a float in −2²² ..< 2²², its low mantissa bits are the value
    /// rounded to an integer.
    private static let magic: Float = 12_582_912

    init(scale: Float, exposure e: SensorExposure) {
        let offset = e.darkDN + e.blackLevel
        self.scale = SIMD4(repeating: scale)
        // σ² = K·(s·scale + dark) + K²σr², as an affine function of s.
        varianceScale = SIMD4(repeating: scale * e.varianceSlope)
        varianceOffset = SIMD4(repeating: e.varianceSlope * e.darkDN + e.varianceOffset)
        // The full well clips the signal, the ADC the code; both are upper bounds.
        low = SIMD4(repeating: -offset)
        high = SIMD4(repeating: min(e.fullWellDN + e.blackLevel, e.maxCode) - offset)
        rounding = SIMD4(repeating: offset + SensorKernel.magic)
    }

    /// Converts `count` samples of relative radiance (bfloat16 bits, see `StaticLayer`) to
    /// codes, scaling the noise samples from `noise` (a `NoiseTable` window). Noise samples
    /// are independent, so which goes with which pixel is free: of each 8, the first four
    /// go to the even pixels and the next four to the odd ones. `count` may be anything;
    /// the tail goes through a padded temporary.
    @inline(__always)
    static func convertRow(
        _ source: UnsafePointer<UInt16>, noise: UnsafePointer<Float>, into codes: UnsafeMutablePointer<UInt16>,
        count: Int, scale: Float, exposure e: SensorExposure
    ) {
        let kernel = SensorKernel(scale: scale, exposure: e)
        var i = 0
        while i + 8 <= count {
            let s = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD4<UInt32>.self)
            let evenNoise = UnsafeRawPointer(noise + i).loadUnaligned(as: SIMD4<Float>.self)
            let oddNoise = UnsafeRawPointer(noise + i + 4).loadUnaligned(as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(codes + i).storeBytes(of: kernel.codes(s, evenNoise, oddNoise), as: SIMD4<UInt32>.self)
            i += 8
        }
        guard i < count else { return }
        var s = SIMD8<UInt16>(), n = SIMD8<Float>()
        for lane in 0..<(count - i) {
            s[lane] = source[i + lane]
            n[lane] = noise[i + lane]
        }
        let out = unsafeBitCast(
            kernel.codes(unsafeBitCast(s, to: SIMD4<UInt32>.self), n.lowHalf, n.highHalf), to: SIMD8<UInt16>.self)
        for lane in 0..<(count - i) { codes[i + lane] = out[lane] }
    }

    /// Eight bfloat16 samples (as pairs in 32-bit lanes) and their noise → eight 16-bit
    /// codes in the same layout.
    @inline(__always)
    func codes(_ samples: SIMD4<UInt32>, _ evenNoise: SIMD4<Float>, _ oddNoise: SIMD4<Float>) -> SIMD4<UInt32> {
        // Little-endian: the low half of each lane is the even sample. A bfloat16 is the
        // top half of a float, so moving it there makes the float.
        let even = code(unsafeBitCast(samples &<< 16, to: SIMD4<Float>.self), evenNoise)
        let odd = code(unsafeBitCast(samples & 0xFFFF_0000, to: SIMD4<Float>.self), oddNoise)
        return (even & 0xFFFF) | (odd &<< 16)
    }

    /// One sample per lane → its code in the low 16 bits (high bits are garbage).
    @inline(__always)
    private func code(_ sample: SIMD4<Float>, _ noise: SIMD4<Float>) -> SIMD4<UInt32> {
        let signal = sample * scale + SensorKernel.squareRoot(sample * varianceScale + varianceOffset) * noise
        return unsafeBitCast(SensorKernel.clamp(signal, low, high) + rounding, to: SIMD4<UInt32>.self)
    }

    /// The constant factor `squareRoot` leaves out; the noise table carries it instead.
    static let rootScale: Float = 0.703952253

    /// √x / `rootScale` for x ≥ 0, as x · x^(−½): the reciprocal root from the exponent-
    /// halving bit trick with one Newton-like step, using the magic constant and step
    /// coefficients of Moroz et al. (2018); relative error < 6.6e-4 (measured), so noise
    /// variance is within 0.13 % of the model.
    @inline(__always)
    static func squareRoot(_ x: SIMD4<Float>) -> SIMD4<Float> {
        let bits = SIMD4<UInt32>(repeating: 0x5F1F_FFF9) &- (unsafeBitCast(x, to: SIMD4<UInt32>.self) &>> 1)
        let y = unsafeBitCast(bits, to: SIMD4<Float>.self)
        let xy = x * y
        return xy * (2.38924456 - xy * y)
    }

    /// Lane-wise clamp, spelled out so that it compiles to min/max instructions.
    @inline(__always)
    static func clamp(_ v: SIMD4<Float>, _ lo: SIMD4<Float>, _ hi: SIMD4<Float>) -> SIMD4<Float> {
        let a = SIMD4(
            v[0] > lo[0] ? v[0] : lo[0], v[1] > lo[1] ? v[1] : lo[1], v[2] > lo[2] ? v[2] : lo[2],
            v[3] > lo[3] ? v[3] : lo[3])
        return SIMD4(
            a[0] < hi[0] ? a[0] : hi[0], a[1] < hi[1] ? a[1] : hi[1], a[2] < hi[2] ? a[2] : hi[2],
            a[3] < hi[3] ? a[3] : hi[3])
    }
}
