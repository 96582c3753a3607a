import Foundation
import Testing

@testable import SimulatedCamera

/// EMVA 1288 photon transfer on the simulated sensors (docs `color-and-sensor.md` §5): pairs
/// of flat-field frames of linear raw codes (black level included, before the ISP) at ten
/// illumination levels up to 70 % of saturation, and a dark pair, give the system gain K as
/// the zero-intercept slope of (σ²_y − σ²_y.dark) against (μ_y − μ_y.dark), and the read
/// noise σ_d = √(σ²_y.dark − 1/12) / K electrons. Both must come within 5 % of each camera's
/// documented sensor parameters.
///
/// The frames go through the renderer's own sensor path: `Sensor.exposure` for the
/// per-frame coefficients, a `NoiseTable` for the noise and `SensorKernel.convertRow` for
/// each row and channel, exactly as `FrameRenderer` calls them, on a static layer that is
/// flat (relative radiance 1 everywhere) with no ball.
@Suite("Simulated sensor photon transfer (EMVA 1288)")
struct SimulatedPhotonTransferTests {
    /// Pixels per frame side (per colour channel; all three channels are used).
    static let size = 256
    /// Exposure time: short, so that dark current adds almost nothing to the dark noise
    /// and the temporal dark noise is the documented read noise.
    static let exposureDuration = 0.001
    /// Mean signal above dark of each bright level, as a fraction of saturation.
    static let levels: [Double] = (1...10).map { Double($0) * 0.07 }

    /// Mean and pair variance of one pair of flat frames.
    struct PairStatistics {
        var mean: Double
        var variance: Double
    }

    /// Renders frames `frame` and `frame + 1` of a flat field through the sensor kernel and
    /// returns μ_y = Σ(y_A + y_B)/2N and σ²_y = Σ(y_A − y_B)²/2N over all pixels and channels.
    static func pair(exposure: SensorExposure, noise: NoiseTable, frame: Int64) -> PairStatistics {
        let width = size
        // One flat static-layer row: R, G, B runs of relative radiance 1 as bfloat16.
        let source = [UInt16](repeating: StaticLayer.encode(1), count: 3 * width)
        var codesA = [UInt16](repeating: 0, count: width)
        var codesB = [UInt16](repeating: 0, count: width)
        var sum = 0.0, sumSquaredDifference = 0.0, count = 0
        source.withUnsafeBufferPointer { source in
            for row in 0..<size {
                for channel in 0..<3 {
                    let input = source.baseAddress! + channel * width
                    let scale = exposure.dnPerUnit[channel]
                    codesA.withUnsafeMutableBufferPointer { a in
                        SensorKernel.convertRow(
                            input, noise: noise.window(frame: frame, row: row, channel: channel), into: a.baseAddress!,
                            count: width, scale: scale, exposure: exposure)
                    }
                    codesB.withUnsafeMutableBufferPointer { b in
                        SensorKernel.convertRow(
                            input, noise: noise.window(frame: frame + 1, row: row, channel: channel),
                            into: b.baseAddress!, count: width, scale: scale, exposure: exposure)
                    }
                    for x in 0..<width {
                        let a = Double(codesA[x]), b = Double(codesB[x])
                        sum += a + b
                        sumSquaredDifference += (a - b) * (a - b)
                    }
                    count += width
                }
            }
        }
        return PairStatistics(mean: sum / Double(2 * count), variance: sumSquaredDifference / Double(2 * count))
    }

    /// The photon transfer estimate for one camera at base ISO and native resolution.
    struct Estimate {
        var systemGain: Double
        var readNoise: Double
        var darkMean: Double
        var darkVariance: Double
    }

    static func estimate(model: SimulatedCameraModel, seed: UInt64) -> Estimate {
        let parameters = model.sensor
        let sensor = Sensor(parameters)
        let format = model.descriptor.formats[model.descriptor.defaultFormatIndex]
        let optics = model.optics(for: format)
        func exposure(luminance: Float) -> SensorExposure {
            sensor.exposure(
                luminanceScale: luminance, optics: optics, exposureDuration: exposureDuration,
                iso: parameters.baseISO, outputWidth: parameters.width)
        }
        let noise = NoiseTable(seed: seed)
        // Saturation: the full well fills the ADC range above black at base ISO.
        let saturation = Double(parameters.maxCode - parameters.blackLevel)
        let perLuminance = Double(exposure(luminance: 1).dnPerUnit.y)
        let dark = pair(exposure: exposure(luminance: 0), noise: noise, frame: 0)
        var numerator = 0.0, denominator = 0.0
        for (index, level) in levels.enumerated() {
            let luminance = Float(level * saturation / perLuminance)
            let bright = pair(exposure: exposure(luminance: luminance), noise: noise, frame: Int64(2 * index + 2))
            let signal = bright.mean - dark.mean
            let shotVariance = bright.variance - dark.variance
            // Zero-intercept least squares: K = Σ x·y / Σ x².
            numerator += signal * shotVariance
            denominator += signal * signal
        }
        let k = numerator / denominator
        // EMVA 1288 floors σ²_y.dark at 0.24 DN² before removing the quantisation noise.
        let readNoise = (max(dark.variance, 0.24) - 1.0 / 12).squareRoot() / k
        return Estimate(systemGain: k, readNoise: readNoise, darkMean: dark.mean, darkVariance: dark.variance)
    }

    @Test("Photon transfer recovers system gain and read noise within 5 %", arguments: 0..<4)
    func photonTransfer(camera: Int) {
        let model = SimulatedCameraCatalog.models()[camera]
        let parameters = model.sensor
        // The sensor model's K at base ISO: the full well spans the ADC range above black.
        let documentedGain = Double(parameters.maxCode - parameters.blackLevel) / parameters.fullWell
        let documentedReadNoise = parameters.readNoise
        let estimate = Self.estimate(model: model, seed: 0x1288_0000 + UInt64(camera))
        let name = model.descriptor.localizedName
        print(
            "photon transfer \(name): K \(estimate.systemGain) DN/e- (documented \(documentedGain)), "
                + "read noise \(estimate.readNoise) e- (documented \(documentedReadNoise)), "
                + "dark mean \(estimate.darkMean) DN, dark variance \(estimate.darkVariance) DN^2")
        #expect(abs(estimate.systemGain / documentedGain - 1) < 0.05, "\(name): K \(estimate.systemGain) vs \(documentedGain)")
        #expect(
            abs(estimate.readNoise / documentedReadNoise - 1) < 0.05,
            "\(name): read noise \(estimate.readNoise) e- vs \(documentedReadNoise) e-")
        // The dark frame sits on the black level.
        #expect(abs(estimate.darkMean - Double(parameters.blackLevel)) < 0.5)
        // And its temporal variance is that of the model's Gaussian read noise after the
        // ADC's rounding, computed exactly: EMVA's σ²_q = 1/12 assumes σ_y.dark ≳ 0.5 DN,
        // and below that rounding (the kernel adds no dither) hides part of the read noise.
        let exact = Self.roundedGaussianVariance(
            sigma: documentedReadNoise * documentedGain, mean: estimate.darkMean - estimate.darkMean.rounded())
        #expect(
            abs(estimate.darkVariance / exact - 1) < 0.03,
            "\(name): dark variance \(estimate.darkVariance) DN² vs \(exact) DN² for rounded N(0, σ_d·K)")
    }

    /// Var(round(x)) for x ~ N(mean, sigma²), mean in −0.5 ... 0.5.
    static func roundedGaussianVariance(sigma: Double, mean: Double) -> Double {
        func cdf(_ x: Double) -> Double { 0.5 * (1 + erf((x - mean) / (sigma * 2.0.squareRoot()))) }
        var first = 0.0, second = 0.0
        for code in -30...30 {
            let c = Double(code)
            let p = cdf(c + 0.5) - cdf(c - 0.5)
            first += c * p
            second += c * c * p
        }
        return second - first * first
    }
}
