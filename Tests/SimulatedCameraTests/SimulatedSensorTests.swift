import Foundation
import Testing

@testable import SimulatedCamera

@Suite("Simulated sensor, optics and auto exposure")
struct SimulatedSensorTests {
    private let wide = SimulatedCameraCatalog.models()[0]

    private func exposure(time: Double, iso: Float, width: Int = 4032, luminance: Float = 200) -> SensorExposure {
        let format = wide.descriptor.formats[wide.descriptor.presetFormats["AVCaptureSessionPresetPhoto"]!]
        return Sensor(wide.sensor).exposure(
            luminanceScale: luminance, optics: wide.optics(for: format), exposureDuration: time, iso: iso,
            outputWidth: width)
    }

    @Test func exposureScalesLinearly() {
        let base = exposure(time: 0.01, iso: 34)
        let longer = exposure(time: 0.02, iso: 34)
        #expect(abs(longer.dnPerUnit.y / base.dnPerUnit.y - 2) < 1e-5)
        #expect(abs(longer.darkDN / base.darkDN - 2) < 1e-5)
        // ISO doubles the gain K (analog) ...
        let iso68 = exposure(time: 0.01, iso: 68)
        #expect(abs(iso68.varianceSlope / base.varianceSlope - 2) < 1e-5)
        #expect(iso68.digitalGain == 1)
        // ... and beyond 16× the ISP applies the rest digitally.
        let high = exposure(time: 0.01, iso: 34 * 64)
        #expect(abs(high.varianceSlope / base.varianceSlope - 16) < 1e-4)
        #expect(abs(high.digitalGain - 4) < 1e-5)
        // Photons: E = q₀·L/N² lux on a 1.9 µm pixel: 200 cd/m² white at f/1.78 for 10 ms.
        let lux = Optics.q0 * 200 / (1.78 * 1.78)
        let electrons = lux * 0.01 * 1.9 * 1.9 * Sensor.photonsPerLuxSecond * 0.68
        let k = Double(base.varianceSlope)
        #expect(abs(Double(base.dnPerUnit.y) / (electrons * k) - 1) < 1e-4)
        // At base ISO the full well fills the ADC above black.
        #expect(abs(base.fullWellDN - (4095 - 256)) < 1e-2)
    }

    @Test func binningAveragesNoiseAway() {
        let full = exposure(time: 0.01, iso: 34)
        let binned = exposure(time: 0.01, iso: 34, width: 2016)
        // Same mean signal, a quarter of the noise variance.
        #expect(abs(binned.dnPerUnit.y / full.dnPerUnit.y - 1) < 1e-5)
        #expect(abs(binned.varianceSlope / full.varianceSlope - 0.25) < 1e-5)
    }

    /// In the dark the mean code is black + dark current, fractions of a DN included (they
    /// must not be rounded away before the noise is added).
    @Test(arguments: [0.0, 0.37, 0.5, 1.81])
    func darkFrameMeanKeepsFractionalDarkSignal(dark: Float) {
        var e = exposure(time: 0.01, iso: 400)
        e.darkDN = dark
        e.varianceSlope = 1
        e.varianceOffset = 4  // 2 DN of read noise: dithers the rounding
        let (mean, _) = flatField(radiance: 0, width: 4096, rows: 64, seed: 9, channel: 0, exposure: e)
        #expect(abs(mean - Double(e.blackLevel + dark)) < 0.05, "mean \(mean), expected \(e.blackLevel + dark)")
    }

    /// Mean and variance of the codes of `rows` rows of a uniform `radiance` through the
    /// sensor kernel, channel `channel`'s scale, noise from a table seeded `seed`.
    private func flatField(
        radiance: Float, width: Int, rows: Int, seed: UInt64, channel: Int, exposure e: SensorExposure
    ) -> (mean: Double, variance: Double) {
        let noise = NoiseTable(seed: seed)
        let source = [UInt16](repeating: StaticLayer.encode(radiance), count: width)
        var codes = [UInt16](repeating: 0, count: width)
        var sum = 0.0, squares = 0.0
        for row in 0..<rows {
            source.withUnsafeBufferPointer { s in
                codes.withUnsafeMutableBufferPointer { c in
                    SensorKernel.convertRow(
                        s.baseAddress!, noise: noise.window(frame: 0, row: row, channel: channel), into: c.baseAddress!,
                        count: width, scale: e.dnPerUnit[channel], exposure: e)
                }
            }
            for code in codes {
                sum += Double(code)
                squares += Double(code) * Double(code)
            }
        }
        let n = Double(rows * width)
        return (sum / n, squares / n - (sum / n) * (sum / n))
    }

    @Test func fastSquareRootIsAccurate() {
        var x: Float = 1e-3
        while x < 1e7 {
            let approx = SensorKernel.squareRoot(x) * SensorKernel.rootScale
            #expect(abs(approx / x.squareRoot() - 1) < 7e-4)
            x *= 1.37
        }
        #expect(SensorKernel.squareRoot(0) == 0)
    }

    /// A flat field has the EMVA 1288 mean and variance: μ = black + dark + s·scale,
    /// σ² = K·(μ − black) + K²σr² (+ 1/12 DN² of quantisation).
    @Test func flatFieldFollowsTheLinearModel() {
        let e = exposure(time: 0.004, iso: 200)
        // An odd width exercises the vector loop's tail.
        let (mean, variance) = flatField(radiance: 0.25, width: 4001, rows: 200, seed: 5, channel: 1, exposure: e)
        let signal = 0.25 * Double(e.dnPerUnit.y) + Double(e.darkDN)
        let expectedVariance = Double(e.varianceSlope) * signal + Double(e.varianceOffset) + 1.0 / 12
        #expect(abs(mean - Double(e.blackLevel) - signal) < 0.01 * signal)
        #expect(abs(variance / expectedVariance - 1) < 0.03)
    }

    @Test func autoExposureDividesTimeThenISOThenFrameDuration() {
        let limits = AutoExposure.Limits(
            minExposure: 1e-5, maxExposure: 1, minISO: 34, maxISO: 3264, minFrameDuration: 1.0 / 30,
            maxFrameDuration: 1.0 / 10)
        var ae = AutoExposure(limits: limits)
        // Far too dark: every step raises exposure; time fills first, then ISO, then frames.
        var previous = ae.totalExposure
        var sawISOBeforeLongFrames = false
        for _ in 0..<60 {
            ae.update(meanLinear: 0.0001)
            #expect(ae.totalExposure >= previous)
            previous = ae.totalExposure
            if ae.iso > 34 { #expect(abs(ae.exposureDuration - 1.0 / 30) < 1e-12 || ae.frameDuration > 1.0 / 30) }
            if ae.iso > 34 && ae.iso < 3264 { sawISOBeforeLongFrames = true }
            if ae.frameDuration > 1.0 / 30 { #expect(ae.iso == 3264) }
        }
        #expect(sawISOBeforeLongFrames)
        #expect(ae.iso == 3264 && abs(ae.exposureDuration - 0.1) < 1e-12 && abs(ae.frameDuration - 0.1) < 1e-12)
        // Far too bright: back to the shortest exposure at minimum ISO.
        for _ in 0..<80 { ae.update(meanLinear: 1) }
        #expect(ae.iso == 34 && abs(ae.exposureDuration - 1e-5) < 1e-12 && ae.frameDuration == 1.0 / 30)
    }

    @Test func autoExposureConvergesWithoutOvershoot() {
        // A plant where metered light is proportional to exposure, clipped at white.
        let limits = AutoExposure.Limits(
            minExposure: 1e-5, maxExposure: 1, minISO: 34, maxISO: 3264, minFrameDuration: 1.0 / 30,
            maxFrameDuration: 1.0 / 30)
        for sceneGain in [2.0, 20.0, 3000.0] {
            var ae = AutoExposure(limits: limits)
            let start = ae.totalExposure * sceneGain / 1000
            var offsets: [Float] = []
            for _ in 0..<40 {
                ae.update(meanLinear: min(ae.totalExposure * sceneGain / 1000, 1))
                offsets.append(ae.targetOffset)
            }
            #expect(abs(offsets.last!) < 0.05)
            // The sign of the error never flips beyond the deadband.
            let sign: Float = start > 0.18 ? 1 : -1
            #expect(offsets.allSatisfy { $0 * sign > -Float(ae.deadband) * 1.5 })
        }
    }

    @Test func vignettingIsMildAndCentred() {
        let format = wide.descriptor.formats[wide.descriptor.defaultFormatIndex]
        let optics = wide.optics(for: format)
        #expect(optics.relativeIllumination(x: 0.5, y: 0.5, aspect: 16.0 / 9) == 1)
        let corner = optics.relativeIllumination(x: 0, y: 0, aspect: 16.0 / 9)
        #expect(corner > 0.8 && corner < 0.98)
        #expect(optics.focalLength > 4 && optics.focalLength < 7)
    }
}
