import Testing
import TestSupport

@testable import ImageOps

/// The BT.709 encoder's per-pixel Swift, as it was before the conversion moved into the C
/// kernel `oc_bgra_to_yuv709_row_pair` (issue 30): the reference the kernel must equal.
private struct ReferenceEncoder {
    let fullRange: Bool

    func encode(
        _ bgra: [UInt8], width: Int, height: Int, flipped: Bool, chromaStep: Int
    ) -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
        let kr = 0.2126, kb = 0.0722, one = Double(1 << 16)
        let lumaScale = fullRange ? 1 : 219.0 / 255.0, chromaScale = fullRange ? 1 : 224.0 / 255.0
        func fixed(_ value: Double) -> Int { Int((value * one).rounded()) }
        let yR = fixed(kr * lumaScale), yB = fixed(kb * lumaScale), yG = fixed(lumaScale) - yR - yB
        let uR = fixed(-kr / (2 * (1 - kb)) * chromaScale), uB = fixed(0.5 * chromaScale), uG = -uR - uB
        let vR = fixed(0.5 * chromaScale), vB = fixed(-kb / (2 * (1 - kr)) * chromaScale), vG = -vR - vB
        let yBias = ((fullRange ? 0 : 16) << 16) + (1 << 15), cBias = (128 << 18) + (1 << 17)
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        var y = [UInt8](repeating: 0, count: width * height)
        var u = [UInt8](repeating: 0, count: chromaWidth * chromaHeight * chromaStep)
        var v = u
        func pixel(_ row: Int, _ column: Int) -> (r: Int, g: Int, b: Int) {
            let source = flipped ? height - 1 - row : row
            let p = (source * width + column) * 4
            return (Int(bgra[p + 2]), Int(bgra[p + 1]), Int(bgra[p]))
        }
        func luma(_ p: (r: Int, g: Int, b: Int)) -> UInt8 { UInt8(clamping: (yR * p.r + yG * p.g + yB * p.b + yBias) >> 16) }
        for row in stride(from: 0, to: height, by: 2) {
            let second = min(row + 1, height - 1)
            for column in stride(from: 0, to: width, by: 2) {
                let right = min(column + 1, width - 1)
                let p = [pixel(row, column), pixel(row, right), pixel(second, column), pixel(second, right)]
                y[row * width + column] = luma(p[0])
                if column + 1 < width { y[row * width + column + 1] = luma(p[1]) }
                if row + 1 < height {
                    y[(row + 1) * width + column] = luma(p[2])
                    if column + 1 < width { y[(row + 1) * width + column + 1] = luma(p[3]) }
                }
                let r = p.reduce(0) { $0 + $1.r }, g = p.reduce(0) { $0 + $1.g }, b = p.reduce(0) { $0 + $1.b }
                let chroma = (row / 2) * chromaWidth * chromaStep + (column / 2) * chromaStep
                u[chroma] = UInt8(clamping: (uR * r + uG * g + uB * b + cBias) >> 18)
                v[chroma] = UInt8(clamping: (vR * r + vG * g + vB * b + cBias) >> 18)
            }
        }
        return (y, u, v)
    }
}

/// `BT709Encoder` converts row pairs in a C kernel; every sample must be the Swift's.
@Suite("BT.709 encoder kernel")
struct BT709EncoderKernelTests {
    @Test(arguments: [(64, 48), (33, 17), (1, 1), (2, 3), (129, 2)])
    func kernelMatchesTheSwiftEncoder(width: Int, height: Int) {
        var random = SplitMix64(seed: UInt64(width * 1000 + height))
        let bgra = (0..<(width * height * 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        for fullRange in [false, true] {
            for flipped in [false, true] {
                for chromaStep in [1, 2] {
                    let expected = ReferenceEncoder(fullRange: fullRange).encode(
                        bgra, width: width, height: height, flipped: flipped, chromaStep: chromaStep)
                    var y = [UInt8](repeating: 0, count: width * height)
                    var u = [UInt8](repeating: 0, count: chromaWidth * chromaHeight * chromaStep)
                    var v = u
                    bgra.withUnsafeBufferPointer { source in
                        y.withUnsafeMutableBufferPointer { y in
                            u.withUnsafeMutableBufferPointer { u in
                                v.withUnsafeMutableBufferPointer { v in
                                    let stride = width * 4
                                    let start = source.baseAddress! + (flipped ? (height - 1) * stride : 0)
                                    BT709Encoder(fullRange: fullRange).encode(
                                        source: start, sourceStride: flipped ? -stride : stride, width: width, height: height,
                                        y: y.baseAddress!, yStride: width, u: u.baseAddress!, v: v.baseAddress!,
                                        chromaStride: chromaWidth * chromaStep, chromaStep: chromaStep)
                                }
                            }
                        }
                    }
                    let label = "\(width)x\(height) full \(fullRange) flipped \(flipped) step \(chromaStep)"
                    #expect(y == expected.y, "luma differs: \(label)")
                    #expect(u == expected.u, "Cb differs: \(label)")
                    #expect(v == expected.v, "Cr differs: \(label)")
                }
            }
        }
    }
}
