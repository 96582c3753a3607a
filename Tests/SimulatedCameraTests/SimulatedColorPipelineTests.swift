import ColorScience
import Foundation
import Synchronization
import Testing

@testable import CaptureCore
@testable import SimulatedCamera

/// The back wide camera's colour model and response.
private let wide = SimulatedCameraCatalog.models()[0]
private let response = wide.response

/// ISP settings for a 10-bit sensor (black 64) or a 12-bit one (black 256) balanced for `white`.
private func settings(
    for white: Chromaticity, range: YCbCrRange = .full, digitalGain: Float = 1, bitDepth: Int = 10
) -> ISP.Settings {
    let model = response.model
    let black: Float = bitDepth == 12 ? 256 : 64
    return ISP.Settings(
        bitDepth: bitDepth, blackLevel: black, whiteDN: Float(1 << bitDepth) - 1 - black, digitalGain: digitalGain,
        whiteBalance: SIMD3<Float>(model.gains(forWhite: white)),
        colorMatrix: ColorTransform(model.cameraToLinearSRGB(forWhite: white)), range: range)
}

/// Runs one row of codes through the ISP's BGRA path; returns R, G, B per pixel.
private func bgra(_ isp: ISP, _ pixels: [SIMD3<UInt16>]) -> [SIMD3<Int>] {
    let width = pixels.count
    var raw = [UInt16](repeating: 0, count: 3 * width)
    for (x, p) in pixels.enumerated() {
        for c in 0..<3 { raw[c * width + x] = p[c] }
    }
    var out = [UInt32](repeating: 0, count: width)
    raw.withUnsafeBufferPointer { r in
        out.withUnsafeMutableBytes { isp.encodeBGRA(r.baseAddress!, width: width, into: $0.baseAddress!) }
    }
    return out.map { SIMD3(Int($0 >> 16 & 0xFF), Int($0 >> 8 & 0xFF), Int($0 & 0xFF)) }
}

/// The ISP's pipeline in floating point: codes → 8-bit R'G'B' (unrounded).
private func reference(_ code: SIMD3<UInt16>, _ s: ISP.Settings) -> SIMD3<Double> {
    let signal = (SIMD3<Double>(code) - Double(s.blackLevel)) * Double(s.digitalGain) * SIMD3<Double>(s.whiteBalance)
        / Double(s.whiteDN)
    let v = signal.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
    let m = s.colorMatrix
    let linear = SIMD3<Double>(m.apply(SIMD3<Float>(v))).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
    let f = TransferFunction.sRGB
    return SIMD3(f.encode(linear.x), f.encode(linear.y), f.encode(linear.z)) * 255
}

@Suite("Simulated colour pipeline")
struct SimulatedColorPipelineTests {
    /// A grey seen under W (camera signal ρ·neutral(W)) comes out grey with W's gains and
    /// colour matrix, at the sRGB code of ρ (12-bit codes, so that ADC steps times gains
    /// stay below an output code even in the shadows).
    @Test(arguments: [2850.0, 4500, 6504, 9000])
    func greyUnderAnyLightComesOutGrey(kelvin: Double) {
        let white = TemperatureTint(temperature: kelvin, tint: kelvin == 6504 ? 9.8 : 0).chromaticity
        let isp = ISP()
        isp.apply(settings(for: white, bitDepth: 12))
        let neutral = response.model.neutral(forWhite: white)
        let levels = [0.02, 0.18, 0.5, 0.9]
        let codes = levels.map { SIMD3<UInt16>(256 + neutral * $0 * 3839, rounding: .toNearestOrAwayFromZero) }
        for (level, rgb) in zip(levels, bgra(isp, codes)) {
            let expected = TransferFunction.sRGB.encode(level) * 255
            #expect(rgb.max() - rgb.min() <= 1, "\(kelvin) K, level \(level): \(rgb)")
            #expect(abs(Double(rgb.y) - expected) <= 1, "\(kelvin) K, level \(level): \(rgb) vs \(expected)")
        }
    }

    /// Clipped highlights are white whatever the gains (no magenta).
    @Test func clippedHighlightsAreWhite() {
        let isp = ISP()
        isp.apply(settings(for: TemperatureTint(temperature: 2850, tint: 0).chromaticity))
        let out = bgra(isp, [SIMD3(1023, 1023, 1023), SIMD3(1023, 1023, 700)])
        #expect(out[0] == SIMD3(255, 255, 255))
        #expect(out[1].min() >= 250, "\(out[1])")
    }

    /// BGRA and Y'CbCr match the double-precision pipeline within rounding.
    @Test(arguments: YCbCrRange.allCases)
    func kernelsMatchDoublePrecisionReference(range: YCbCrRange) {
        let s = settings(for: TemperatureTint(temperature: 3800, tint: 6).chromaticity, range: range, digitalGain: 1.3)
        let isp = ISP()
        isp.apply(s)
        var rng = SplitMix64(seed: 11)
        let codes = (0..<512).map { _ in SIMD3<UInt16>((0..<3).map { _ in UInt16(rng.next() % 1024) }) }
        for (code, rgb) in zip(codes, bgra(isp, codes)) {
            let expected = reference(code, s)
            #expect(abs(SIMD3<Double>(rgb) - expected).max() <= 1.2, "\(code): \(rgb) vs \(expected)")
        }
        // Y'CbCr of 2×2 blocks: luma per pixel, chroma from the block's mean R'G'B'.
        let width = 2
        for block in stride(from: 0, to: codes.count, by: 4) {
            let quad = Array(codes[block..<(block + 4)])
            var rows = [[UInt16]](repeating: [UInt16](repeating: 0, count: 3 * width), count: 2)
            for (i, p) in quad.enumerated() {
                for c in 0..<3 { rows[i / 2][c * width + i % 2] = p[c] }
            }
            var luma = [UInt8](repeating: 0, count: 4), chroma = [UInt8](repeating: 0, count: 2)
            luma.withUnsafeMutableBufferPointer { l in
                chroma.withUnsafeMutableBufferPointer { c in
                    isp.encodeRowPair(
                        rows[0], rows[1], width: width, lumaA: l.baseAddress!, lumaB: l.baseAddress! + 2,
                        cb: c.baseAddress!, cr: c.baseAddress! + 1, chromaStep: 2)
                }
            }
            let signals = quad.map { reference($0, s) / 255 }
            for (i, signal) in signals.enumerated() {
                let y = range.lumaCode(YCbCrMatrix.bt709.ycbcr(fromRGB: signal).x)
                #expect(abs(Int(luma[i]) - y) <= 1)
            }
            let mean = YCbCrMatrix.bt709.ycbcr(fromRGB: signals.reduce(.zero, +) / 4)
            #expect(abs(Int(chroma[0]) - range.chromaCode(mean.y)) <= 1)
            #expect(abs(Int(chroma[1]) - range.chromaCode(mean.z)) <= 1)
        }
    }

    /// Planar and interleaved chroma agree for any width, and the last column of an odd
    /// width is a chroma block of its own (its two pixels counted twice).
    @Test(arguments: [1, 2, 7, 130, 257])
    func chromaLayoutsAgreeAtAnyWidth(width: Int) {
        let isp = ISP()
        isp.apply(settings(for: TemperatureTint(temperature: 5000, tint: 0).chromaticity, range: .video))
        var rng = SplitMix64(seed: UInt64(width))
        let rows = (0..<2).map { _ in (0..<(3 * width)).map { _ in UInt16(64 + rng.next() % 960) } }
        let pairs = (width + 1) / 2
        var luma = [UInt8](repeating: 0, count: 2 * width)
        var interleaved = [UInt8](repeating: 0, count: 2 * pairs), planar = [UInt8](repeating: 0, count: 2 * pairs)
        var lumaPlanar = luma
        luma.withUnsafeMutableBufferPointer { l in
            interleaved.withUnsafeMutableBufferPointer { c in
                isp.encodeRowPair(
                    rows[0], rows[1], width: width, lumaA: l.baseAddress!, lumaB: l.baseAddress! + width,
                    cb: c.baseAddress!, cr: c.baseAddress! + 1, chromaStep: 2)
            }
        }
        lumaPlanar.withUnsafeMutableBufferPointer { l in
            planar.withUnsafeMutableBufferPointer { c in
                isp.encodeRowPair(
                    rows[0], rows[1], width: width, lumaA: l.baseAddress!, lumaB: l.baseAddress! + width,
                    cb: c.baseAddress!, cr: c.baseAddress! + pairs, chromaStep: 1)
            }
        }
        #expect(luma == lumaPlanar)
        for block in 0..<pairs {
            #expect(interleaved[2 * block] == planar[block] && interleaved[2 * block + 1] == planar[pairs + block])
        }
        guard width % 2 == 1 else { return }
        // The last column alone, as a two-wide image of that column twice.
        let column = width - 1
        let doubled = rows.map { row in (0..<3).flatMap { channel in Array(repeating: row[channel * width + column], count: 2) } }
        var lastLuma = [UInt8](repeating: 0, count: 4), lastChroma = [UInt8](repeating: 0, count: 2)
        lastLuma.withUnsafeMutableBufferPointer { l in
            lastChroma.withUnsafeMutableBufferPointer { c in
                isp.encodeRowPair(
                    doubled[0], doubled[1], width: 2, lumaA: l.baseAddress!, lumaB: l.baseAddress! + 2,
                    cb: c.baseAddress!, cr: c.baseAddress! + 1, chromaStep: 2)
            }
        }
        #expect(Array(interleaved[(2 * pairs - 2)...]) == lastChroma)
        #expect(luma[column] == lastLuma[0] && luma[width + column] == lastLuma[2])
    }

    /// A neutral surface under W gives the camera neutral of W; D65 light leaves the sRGB
    /// colours of the scene as they are up to the camera's own response.
    @Test(arguments: [2850.0, 5000, 6504, 10000])
    func sceneLightReachesTheSensorAsTheCalibrationSays(kelvin: Double) {
        let light = TemperatureTint(temperature: kelvin, tint: 0)
        let m = response.sceneToCamera(under: light)
        let white = m * SIMD3(1, 1, 1)
        let neutral = response.model.neutral(forWhite: light.chromaticity)
        #expect(abs(white - neutral).max() < 1e-9, "\(white) vs \(neutral)")
        #expect(white.max() == 1)
    }
}

/// Lane-wise magnitude.
private func abs<V: SIMD>(_ v: V) -> V where V.Scalar: FloatingPoint {
    v.replacing(with: -v, where: v .< .zero)
}
