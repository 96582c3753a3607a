import CRenderKernels
import Foundation
import Testing

@testable import SimulatedCamera

/// `oc_defocus_band` against the Swift passes it replaced (below, as they were): a box blur
/// along x into a bfloat16 layer, then along y, each pixel taking its depth plane's blur and
/// gain, must give the same bits, whatever the size, the taps and how rows are split.
@Suite("Defocus kernel")
struct DefocusKernelTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var width: Int
        var height: Int
        /// Per plane: whole taps, end-tap weight, gain.
        var planes: [(taps: Int, fraction: Float, gain: Float)]
        var testDescription: String { "\(width)x\(height) \(planes)" }
    }

    static let cases: [Case] = [
        Case(width: 1, height: 1, planes: [(0, 0.5, 1)]),
        Case(width: 1, height: 7, planes: [(3, 0, 1), (0, 0.2, 2)]),
        Case(width: 7, height: 1, planes: [(2, 0.6, 1)]),
        Case(width: 5, height: 3, planes: [(0, 0.3, 1.2), (9, 0.7, 1)]),
        // Taps past both edges, an unblurred lit plane and one left alone.
        Case(width: 13, height: 11, planes: [(20, 1, 1), (0, 0, 0.5), (0, 0, 1)]),
        Case(width: 37, height: 29, planes: [(0, 0, 1), (40, 0.25, 0.8)]),
        // Widths around the eight-column blocks, heights around the eight-row blocks.
        Case(width: 8, height: 8, planes: [(1, 0.1, 1), (3, 0.9, 1.1)]),
        Case(width: 17, height: 9, planes: [(4, 0.5, 1), (1, 0, 1)]),
        Case(width: 64, height: 48, planes: [(12, 0.37, 1), (3, 0.81, 1.3)]),
    ]

    /// Signal from 1/64 to 1.2 of white (where the Swift passes' float running sums are
    /// exact, as they are in any window of samples within 2¹⁵ of each other), and planes at
    /// random (runs of one plane, as a scene has).
    @Test(arguments: cases) func matchesTheSwiftPasses(_ c: Case) {
        let (sharp, mask) = Self.layer(c, light: 1.0 / 64...1.2)
        let expected = Self.reference(sharp, mask: mask, c)
        for parts in [1, 2, 3] {
            #expect(Self.kernel(sharp, mask: mask, c, parts: parts) == expected, "\(parts) bands")
        }
    }

    /// From deep shadow to a bright sky (2⁻³⁰ to 50 of white): however the rows are split
    /// between workers, the same bits (the vertical sums are exact).
    @Test(arguments: cases) func bandsDoNotChangeTheResult(_ c: Case) {
        let (sharp, mask) = Self.layer(c, light: 0...1)
        let wide = sharp.map { StaticLayer.encode(pow(2, StaticLayer.decode($0) * 35.6 - 30)) }
        let one = Self.kernel(wide, mask: mask, c, parts: 1)
        for parts in [2, 3, 5] { #expect(Self.kernel(wide, mask: mask, c, parts: parts) == one, "\(parts) bands") }
    }

    /// A layer of uniformly random signal in `light` and its depth mask.
    static func layer(_ c: Case, light: ClosedRange<Double>) -> (sharp: [UInt16], mask: [UInt8]) {
        var random = SplitMix64(seed: UInt64(c.width * 1000 + c.height))
        let sharp = (0..<(3 * c.width * c.height)).map { _ in
            StaticLayer.encode(Float(light.lowerBound + random.nextUnit() * (light.upperBound - light.lowerBound)))
        }
        var mask = [UInt8](repeating: 0, count: c.width * c.height)
        for i in mask.indices {
            mask[i] = i > 0 && random.nextUnit() < 0.8 ? mask[i - 1] : UInt8(random.next() % UInt64(c.planes.count))
        }
        return (sharp, mask)
    }

    /// The kernel's output, rows split into `parts` bands as the workers split them.
    static func kernel(_ sharp: [UInt16], mask: [UInt8], _ c: Case, parts: Int) -> [UInt16] {
        let planes = c.planes.map { oc_defocus_plane(taps: $0.taps, fraction: $0.fraction, gain: $0.gain) }
        let widest = c.planes.map(\.taps).max() ?? 0
        let bytes = oc_defocus_band_scratch_bytes(c.width, planes.count, widest)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { scratch.deallocate() }
        var layer = [UInt16](repeating: 0, count: sharp.count)
        for part in 0..<parts {
            oc_defocus_band(
                sharp, &layer, mask, c.width, c.height, c.height * part / parts, c.height * (part + 1) / parts, planes,
                planes.count, scratch)
        }
        return layer
    }

    /// The Swift passes of `Defocus` before the kernel: per plane, blurred along x over the
    /// whole layer into bfloat16, then along y, written where the mask has the plane.
    static func reference(_ sharp: [UInt16], mask: [UInt8], _ c: Case) -> [UInt16] {
        let width = c.width, height = c.height, stride = 3 * width
        var layer = [UInt16](repeating: 0, count: sharp.count)
        func decode(_ v: UInt16) -> Float { StaticLayer.decode(v) }
        for (index, plane) in c.planes.enumerated() {
            let n = plane.taps, f = plane.fraction, gain = plane.gain
            guard n > 0 || f > 0 else {
                for i in 0..<sharp.count where mask[(i / stride) * width + i % width] == index {
                    layer[i] = gain == 1 ? sharp[i] : StaticLayer.encode(decode(sharp[i]) * gain)
                }
                continue
            }
            var temporary = [UInt16](repeating: 0, count: sharp.count)
            let scale = 1 / (Float(2 * n + 1) + 2 * f)
            for run in 0..<(3 * height) {
                let source = run * width
                func p(_ x: Int) -> Float { decode(sharp[source + min(max(x, 0), width - 1)]) }
                var sum: Float = 0
                for k in -n...n { sum += p(k) }
                for x in 0..<width {
                    temporary[source + x] = StaticLayer.encode((sum + f * (p(x - n - 1) + p(x + n + 1))) * scale)
                    sum += p(x + n + 1) - p(x - n)
                }
            }
            let vertical = gain / (Float(2 * n + 1) + 2 * f)
            func row(_ y: Int) -> Int { min(max(y, 0), height - 1) * stride }
            for i in 0..<stride {
                var sum: Float = 0
                for k in -n...n { sum += decode(temporary[row(k) + i]) }
                for y in 0..<height {
                    let above = decode(temporary[row(y - n - 1) + i]), below = decode(temporary[row(y + n + 1) + i])
                    if mask[y * width + i % width] == index {
                        layer[y * stride + i] = StaticLayer.encode((sum + f * (above + below)) * vertical)
                    }
                    sum += below - decode(temporary[row(y - n) + i])
                }
            }
        }
        return layer
    }

    /// A change of the effects too small to show is not applied, and changes add up against
    /// what is applied, so a slow drift is applied once it shows.
    @Test func invisibleChangesAreSkipped() {
        let base = Defocus.Effect(taps: 3, fraction: 0.5, gain: 1)
        #expect(Defocus.Effect(taps: 3, fraction: 0.5001, gain: 1).isIndistinguishable(from: base))
        #expect(Defocus.Effect(taps: 3, fraction: 0.5, gain: 1.00005).isIndistinguishable(from: base))
        #expect(!Defocus.Effect(taps: 3, fraction: 0.501, gain: 1).isIndistinguishable(from: base))
        #expect(!Defocus.Effect(taps: 4, fraction: 0, gain: 1).isIndistinguishable(from: base))
        #expect(!Defocus.Effect(taps: 3, fraction: 0.5, gain: 1.001).isIndistinguishable(from: base))
        // The blur radius an autofocus step changes (0.025 of lens travel) is always applied.
        let sharpish = Defocus.Effect(blurRadius: 0.8, gain: 1), nextStep = Defocus.Effect(blurRadius: 0.85, gain: 1)
        #expect(!nextStep.isIndistinguishable(from: sharpish))
    }
}
