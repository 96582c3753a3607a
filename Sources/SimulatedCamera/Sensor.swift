/// An image sensor after the EMVA 1288 linear model.
///
/// Per pixel and colour channel:
/// - photons μp = E·t·A·Φ, where E is the image-plane illuminance (lux, `Optics`), t the
///   exposure time, A the pixel area (µm²) and Φ = `photonsPerLuxSecond` photons per lux·s
///   per µm². With E = q₀·L/N² that is μp = C·L·t·A/N² for scene luminance L (cd/m²) at
///   f-number N, C = q₀·Φ ≈ 9.6e3 photons per (cd/m²)·s·µm² (q₀ = 0.693, `Optics.q0`);
/// - the static layer holds each channel's camera-native signal relative to the scene
///   white's strongest channel (`CameraResponse`), so a channel's photons are μp times
///   that signal, and `quantumEfficiency` η gives its electrons μe = η·μp (the colour
///   calibration already carries the channels' relative sensitivities);
/// - dark electrons μd = dark current × t;
/// - shot noise of signal and dark current (Poisson, as a Gaussian of variance μe + μd),
///   read noise σr, clipping at the full well;
/// - system gain K DN/e⁻, black level, and an ADC of `bitDepth` bits (round, clip).
///
/// Colour is sampled at every pixel (no mosaic), so no demosaicing is needed. The
/// per-pixel arithmetic is `SensorKernel`.
///
/// Output sizes below the native resolution average the photosites of each output pixel
/// (binning/scaling in the ISP): an output pixel b = native width / output width photosites
/// wide has b² times the area, full well, dark current and read-noise variance, and
/// 1/b² the gain, so its mean is that of one photosite and its noise variance 1/b².
package struct Sensor: Sendable, Equatable {
    /// Photon flux per lux·second per µm² for D65 light, 380–780 nm (docs
    /// `color-and-sensor.md` §5: 1 lx·s of D65 = 1.39e4 photons/µm²). Used for every
    /// illuminant: warmer light carries more photons per lux (illuminant A 2.11e4), but
    /// auto exposure hides that, and the colour matrices model what the spectrum changes.
    package static let photonsPerLuxSecond = 1.39e4

    package var parameters: SensorParameters

    package init(_ parameters: SensorParameters) {
        self.parameters = parameters
    }

    /// Photosites per output pixel along a row, at least 1.
    package func binning(outputWidth: Int) -> Double {
        max(1, Double(parameters.width) / Double(max(outputWidth, 1)))
    }

    /// The coefficients for one frame: how relative radiance (1 = the scene's diffuse
    /// white, as `StaticLayer` holds it) turns into ADC codes at this exposure.
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
        let electronsPerUnit = SIMD3<Double>(repeating: p.quantumEfficiency * photons)
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
}

/// Per-frame sensor coefficients, in DN.
package struct SensorExposure: Sendable, Equatable {
    /// Mean DN per unit of relative radiance, per channel (R, G, B).
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
