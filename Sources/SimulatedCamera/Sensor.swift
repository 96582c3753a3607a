/// An image sensor after the EMVA 1288 linear model.
///
/// Per pixel and colour channel:
/// - photons μp = E·t·A·Φ, where E is the image-plane illuminance (lux, `Optics`), t the
///   exposure time, A the pixel area (µm²) and Φ = `photonsPerLuxSecond` photons per lux·s
///   per µm²; each channel's signal is treated as luminance-equivalent (a neutral patch
///   sends the same photon count to every channel), its `quantumEfficiency` then sets
///   the channel's electrons μe = η·μp;
/// - dark electrons μd = dark current × t;
/// - shot noise of signal and dark current (Poisson, as a Gaussian of variance μe + μd),
///   read noise σr, clipping at the full well;
/// - system gain K DN/e⁻, black level, and an ADC of `bitDepth` bits (round, clip).
///
/// Colour is sampled at every pixel (no mosaic), so no demosaicing is needed.
///
/// Output sizes below the native resolution average the photosites of each output pixel
/// (binning/scaling in the ISP): an output pixel b = native width / output width photosites
/// wide has b² times the area, full well, dark current and read-noise variance, and
/// 1/b² the gain, so its mean is that of one photosite and its noise variance 1/b².
package struct Sensor: Sendable, Equatable {
    /// Photon flux per lux·second per µm² for D65 light, 380–780 nm (docs
    /// `color-and-sensor.md` §5: 1 lx·s of D65 = 1.39e4 photons/µm²).
    package static let photonsPerLuxSecond = 1.39e4

    package var parameters: SensorParameters

    package init(_ parameters: SensorParameters) {
        self.parameters = parameters
    }

    /// Photosites per output pixel along a row, at least 1.
    package func binning(outputWidth: Int) -> Double {
        max(1, Double(parameters.width) / Double(max(outputWidth, 1)))
    }

    /// The coefficients for one frame: how the fixed-point static radiance of `StaticLayer`
    /// turns into ADC codes at this exposure.
    ///
    /// - Parameters:
    ///   - luminanceScale: cd/m² of a relative radiance of 1 (the scene's diffuse white).
    ///   - optics: the lens (f-number).
    ///   - exposureDuration: seconds.
    ///   - iso: the ISO speed; gain is iso / `baseISO`, analog up to `maxAnalogGain`.
    ///   - outputWidth: the output width, for binning.
    package func exposure(
        luminanceScale: Float, optics: Optics, exposureDuration: Double, iso: Float, outputWidth: Int
    ) -> SensorExposure {
        let p = parameters
        let b = binning(outputWidth: outputWidth)
        let area = p.pixelPitch * p.pixelPitch * b * b
        let photons = optics.illuminance(luminance: Double(luminanceScale)) * exposureDuration * area
            * Sensor.photonsPerLuxSecond
        let gain = Double(max(iso, p.baseISO) / p.baseISO)
        let analog = min(gain, Double(p.maxAnalogGain))
        // At base ISO the full well fills the ADC range above the black level.
        let codeRange = Double(p.maxCode - p.blackLevel)
        let kBase = codeRange / (p.fullWell * b * b)
        let k = kBase * analog
        let electronsPerUnit = SIMD3<Double>(p.quantumEfficiency) * photons / Double(StaticLayer.unit)
        let darkElectrons = p.darkCurrent * exposureDuration * b * b
        let readVariance = p.readNoise * p.readNoise * b * b
        return SensorExposure(
            dnPerUnit: SIMD3<Float>(electronsPerUnit * k),
            darkDN: Float(darkElectrons * k),
            varianceSlope: Float(k),
            varianceOffset: Float(k * k * readVariance),
            fullWellDN: Float(k * p.fullWell * b * b),
            blackLevel: Float(p.blackLevel),
            maxCode: Float(p.maxCode),
            digitalGain: Float(gain / analog),
            whiteDN: Float(codeRange))
    }

    /// Converts one row segment of one channel to ADC codes: the hot loop.
    ///
    /// code = clip(round(black + min(μ + σ·n, full well)), 0, max), with μ = s·dnPerUnit +
    /// dark, σ² = K·μ + K²σr² (EMVA 1288: shot-noise variance in DN is K times the mean),
    /// n from `noise` (which must be a table made with `noiseScale`).
    ///
    /// Written for the vector unit: 8 samples per step, loaded as four 32-bit lanes and
    /// split into even and odd halves with shifts and masks, integer → float by exponent
    /// tricks, σ by `Kernel.squareRoot` and clipping by lane-wise min/max, because Swift's
    /// generic SIMD conversions, `squareRoot()` and `pointwiseMin` go lane by lane.
    /// `count` may be anything; the tail goes through a padded temporary.
    @inline(__always)
    package static func convertRow(
        _ source: UnsafePointer<UInt16>, noise: UnsafePointer<Float>, into codes: UnsafeMutablePointer<UInt16>,
        count: Int, scale: Float, exposure e: SensorExposure
    ) {
        let kernel = Kernel(scale: scale, exposure: e)
        var i = 0
        while i + 8 <= count {
            let s = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD4<UInt32>.self)
            let n0 = UnsafeRawPointer(noise + i).loadUnaligned(as: SIMD4<Float>.self)
            let n1 = UnsafeRawPointer(noise + i + 4).loadUnaligned(as: SIMD4<Float>.self)
            // Lanes of s hold samples (0,1), (2,3)...; pair the noise the same way.
            let evenNoise = SIMD4(n0[0], n0[2], n1[0], n1[2]), oddNoise = SIMD4(n0[1], n0[3], n1[1], n1[3])
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
            kernel.codes(unsafeBitCast(s, to: SIMD4<UInt32>.self), n.evenHalf, n.oddHalf), to: SIMD8<UInt16>.self)
        for lane in 0..<(count - i) { codes[i + lane] = out[lane] }
    }

    /// The scale of the standard-normal noise table `convertRow` expects (see
    /// `Kernel.squareRoot`).
    package static let noiseScale = Kernel.rootScale
}

/// The per-sample arithmetic of `Sensor.convertRow` on 4 + 4 lanes.
struct Kernel {
    /// With black folded in: μ' = s·scale + dark + black, σ² = K·μ' + (K²σr² − K·black).
    let scale, meanOffset, slope, varianceOffset, upper: SIMD4<Float>
    let zero = SIMD4<Float>(repeating: 0)
    /// 1.5·2²³: added to a float in 0 ..< 2²², its low mantissa bits are the value rounded
    /// to an integer, and an integer there reads back as that float minus this.
    let magic = SIMD4<Float>(repeating: 12_582_912)
    let magicBits = SIMD4<UInt32>(repeating: 0x4B40_0000)

    init(scale: Float, exposure e: SensorExposure) {
        self.scale = SIMD4(repeating: scale)
        meanOffset = SIMD4(repeating: e.darkDN + e.blackLevel)
        slope = SIMD4(repeating: e.varianceSlope)
        varianceOffset = SIMD4(repeating: e.varianceOffset - e.varianceSlope * e.blackLevel)
        // The full well clips the signal, the ADC the code; both are upper bounds.
        upper = SIMD4(repeating: min(e.fullWellDN + e.blackLevel, e.maxCode))
    }

    /// Eight 16-bit samples (as pairs in 32-bit lanes) and their noise → eight 16-bit codes
    /// in the same layout.
    @inline(__always)
    func codes(_ samples: SIMD4<UInt32>, _ evenNoise: SIMD4<Float>, _ oddNoise: SIMD4<Float>) -> SIMD4<UInt32> {
        // Little-endian: the low half of each lane is the even sample.
        let even = code(float(samples & 0xFFFF), evenNoise)
        let odd = code(float(samples &>> 16), oddNoise)
        return (even & 0xFFFF) | (odd &<< 16)
    }

    /// Unsigned integers below 2²² → float.
    @inline(__always)
    private func float(_ value: SIMD4<UInt32>) -> SIMD4<Float> {
        unsafeBitCast(value | magicBits, to: SIMD4<Float>.self) - magic
    }

    /// One sample per lane → its code in the low 16 bits (high bits are garbage).
    @inline(__always)
    private func code(_ sample: SIMD4<Float>, _ noise: SIMD4<Float>) -> SIMD4<UInt32> {
        let mean = sample * scale + meanOffset
        let signal = mean + Kernel.squareRoot(mean * slope + varianceOffset) * noise
        let code = Kernel.clamp(signal, zero, upper)
        return unsafeBitCast(code + magic, to: SIMD4<UInt32>.self)
    }

    /// The constant factor `squareRoot` leaves out.
    static let rootScale: Float = 0.703952253

    /// √x / `rootScale` for x ≥ 0, as x · x^(−½): the reciprocal root from the exponent-
    /// halving bit trick with one Newton-like step, with the magic constant and step
    /// coefficients of Moroz et al. (2018); relative error < 6.6e-4 (measured), i.e. noise
    /// variance within 0.13 %. The noise table carries the `rootScale` factor instead.
    @inline(__always)
    static func squareRoot(_ x: SIMD4<Float>) -> SIMD4<Float> {
        let bits = SIMD4<UInt32>(repeating: 0x5F1F_FFF9) &- (unsafeBitCast(x, to: SIMD4<UInt32>.self) &>> 1)
        let y = unsafeBitCast(bits, to: SIMD4<Float>.self)
        let xy = x * y
        return xy * (2.38924456 - xy * y)
    }

    /// Lane-wise clamp, spelled so that it compiles to min/max instructions.
    @inline(__always)
    static func clamp(_ v: SIMD4<Float>, _ lo: SIMD4<Float>, _ hi: SIMD4<Float>) -> SIMD4<Float> {
        let a = SIMD4(v[0] > lo[0] ? v[0] : lo[0], v[1] > lo[1] ? v[1] : lo[1], v[2] > lo[2] ? v[2] : lo[2], v[3] > lo[3] ? v[3] : lo[3])
        return SIMD4(a[0] < hi[0] ? a[0] : hi[0], a[1] < hi[1] ? a[1] : hi[1], a[2] < hi[2] ? a[2] : hi[2], a[3] < hi[3] ? a[3] : hi[3])
    }
}

/// Per-frame sensor coefficients, in DN.
package struct SensorExposure: Sendable, Equatable {
    /// Mean DN per fixed-point unit of static radiance, per channel (R, G, B).
    package var dnPerUnit: SIMD3<Float>
    /// Mean dark-current signal.
    package var darkDN: Float
    /// Shot-noise variance per DN of mean (the system gain K).
    package var varianceSlope: Float
    /// Read-noise variance, DN².
    package var varianceOffset: Float
    /// The full well in DN.
    package var fullWellDN: Float
    package var blackLevel: Float
    package var maxCode: Float
    /// Gain the ISP applies beyond the sensor's analog maximum.
    package var digitalGain: Float
    /// DN above black that the ISP maps to white at unity digital gain.
    package var whiteDN: Float
}
