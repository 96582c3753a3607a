import CRenderKernels

/// The sensor's per-pixel arithmetic, the hot loop of the renderer: relative radiance and
/// a noise sample in, ADC code out, for one channel of one row.
///
/// code = clip(round(black + min(μ + σ·n, full well)), 0, max), where μ = s·dnPerUnit +
/// dark is the mean signal in DN, σ² = K·μ + K²σr² its variance (EMVA 1288: the shot-noise
/// variance in DN is K times the mean) and n a sample of the noise table.
///
/// The loop is C (`oc_sensor_row` in CRenderKernels), compiled for baseline x86-64, AVX2
/// and AVX-512 with the best chosen at load time. The static layer's bfloat16 samples
/// become floats with one shift; σ comes from a bit-trick square root (`squareRoot`) whose
/// constant factor the noise table carries; rounding is adding 1.5·2²³, which leaves the
/// rounded code in a float's low mantissa bits.
enum SensorKernel {
    /// The constant factor `squareRoot` leaves out; the noise table carries it instead.
    static let rootScale: Float = 0.703952253

    /// The kernel's coefficients for one channel at one exposure.
    static func coefficients(scale: Float, exposure e: SensorExposure) -> oc_sensor_coefficients {
        // σ² = K·(s·scale + dark) + K²σr², as an affine function of s. The full well clips
        // the signal, the ADC the code; both are upper bounds.
        oc_sensor_coefficients(
            scale: scale, variance_scale: scale * e.varianceSlope,
            variance_offset: e.varianceSlope * e.darkDN + e.varianceOffset, offset: e.darkDN + e.blackLevel, low: 0,
            high: min(e.fullWellDN + e.blackLevel, e.maxCode))
    }

    /// Converts `count` samples of relative radiance (bfloat16 bits, see `StaticLayer`) to
    /// codes; sample i takes noise sample i of `noise` (a `NoiseTable` window).
    @inline(__always)
    static func convertRow(
        _ source: UnsafePointer<UInt16>, noise: UnsafePointer<Float>, into codes: UnsafeMutablePointer<UInt16>,
        count: Int, scale: Float, exposure e: SensorExposure
    ) {
        var k = coefficients(scale: scale, exposure: e)
        oc_sensor_row(source, noise, codes, count, &k)
    }

    /// √x / `rootScale` for x ≥ 0: the reciprocal root from the exponent-halving bit trick
    /// with one Newton-like step, using the magic constant and step coefficients of Moroz
    /// et al. (2018); relative error < 6.6e-4 (measured), so noise variance is within
    /// 0.13 % of the model. The kernel's own function, so tests measure what it computes.
    static func squareRoot(_ x: Float) -> Float {
        oc_sensor_root(x)
    }
}
