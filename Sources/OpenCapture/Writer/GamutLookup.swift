import CaptureCore
import ColorScience

/// One colour conversion of 8-bit BGRA pixels: each channel to linear light by a table, the
/// 3x3 gamut matrix, and back to code values by a finer table.
struct GamutLookup {
    private static let steps = 4096
    private let toLinear: [Float]
    private let matrix: [Float]
    private let toCode: [UInt8]

    init(decode: TransferFunction, matrix: Matrix3x3, encode: TransferFunction) {
        toLinear = (0..<256).map { Float(decode.decode(Double($0) / 255)) }
        let (r0, r1, r2) = matrix.rows
        self.matrix = [r0, r1, r2].flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
        toCode = (0...Self.steps).map { UInt8((encode.encode(Double($0) / Double(Self.steps)) * 255).rounded().clamped(0, 255)) }
    }

    /// Converts every pixel of BGRA `source` into BGRA `destination` of the same size (the
    /// same buffer converts in place).
    func apply(from source: CVPixelBuffer, into destination: CVBuffer) {
        let scale = Float(Self.steps)
        toLinear.withUnsafeBufferPointer { linear in
            toCode.withUnsafeBufferPointer { code in
                matrix.withUnsafeBufferPointer { m in
                    withExtendedLifetime((source, destination)) {
                        for row in 0..<source.height {
                            let from = source.firstPlaneBytes + row * source.bytesPerRow(0)
                            let to = destination.firstPlaneBytes + row * destination.bytesPerRow(0)
                            for x in 0..<source.width {
                                let p = from + 4 * x
                                let b = linear[Int(p[0])], g = linear[Int(p[1])], r = linear[Int(p[2])]
                                func channel(_ i: Int) -> UInt8 {
                                    let value = m[3 * i] * r + m[3 * i + 1] * g + m[3 * i + 2] * b
                                    return code[Int((min(max(value, 0), 1) * scale).rounded())]
                                }
                                let q = to + 4 * x
                                (q[2], q[1], q[0], q[3]) = (channel(0), channel(1), channel(2), 255)
                            }
                        }
                    }
                }
            }
        }
    }
}

extension CVBuffer {
    /// The first plane as bytes; valid while the buffer lives (callers keep it alive).
    fileprivate var firstPlaneBytes: UnsafeMutablePointer<UInt8> { planeAddress(0).assumingMemoryBound(to: UInt8.self) }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}
