import CRenderKernels
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
    /// same buffer converts in place), a row at a time in the C kernel `oc_gamut_row` (linked
    /// as optimised code, so a consumer's debug build converts at the release speed).
    func apply(from source: CVPixelBuffer, into destination: CVBuffer) {
        toLinear.withUnsafeBufferPointer { linear in
            toCode.withUnsafeBufferPointer { code in
                matrix.withUnsafeBufferPointer { m in
                    withExtendedLifetime((source, destination)) {
                        for row in 0..<source.height {
                            oc_gamut_row(
                                source.firstPlaneBytes + row * source.bytesPerRow(0),
                                destination.firstPlaneBytes + row * destination.bytesPerRow(0),
                                source.width, linear.baseAddress, m.baseAddress, code.baseAddress, Self.steps)
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
