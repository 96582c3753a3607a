import ColorScience
import Testing
import TestSupport

@testable import CaptureCore
@testable import OpenCapture

/// The gamut conversion's per-pixel Swift, as it was before it moved into the C kernel
/// `oc_gamut_row`: the reference the kernel must equal byte for byte.
private struct ReferenceGamutConversion {
    static let steps = 4096
    let toLinear: [Float]
    let matrix: [Float]
    let toCode: [UInt8]

    init(decode: TransferFunction, matrix: Matrix3x3, encode: TransferFunction) {
        toLinear = (0..<256).map { Float(decode.decode(Double($0) / 255)) }
        let (r0, r1, r2) = matrix.rows
        self.matrix = [r0, r1, r2].flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
        toCode = (0...Self.steps).map { UInt8(min(max((encode.encode(Double($0) / Double(Self.steps)) * 255).rounded(), 0), 255)) }
    }

    func convert(_ bgra: [UInt8]) -> [UInt8] {
        var out = bgra
        for pixel in stride(from: 0, to: bgra.count, by: 4) {
            let b = toLinear[Int(bgra[pixel])], g = toLinear[Int(bgra[pixel + 1])], r = toLinear[Int(bgra[pixel + 2])]
            func channel(_ i: Int) -> UInt8 {
                let value = matrix[3 * i] * r + matrix[3 * i + 1] * g + matrix[3 * i + 2] * b
                return toCode[Int((min(max(value, 0), 1) * Float(Self.steps)).rounded())]
            }
            (out[pixel + 2], out[pixel + 1], out[pixel], out[pixel + 3]) = (channel(0), channel(1), channel(2), 255)
        }
        return out
    }
}

/// The asset writer's colour matching converts gamut in a C kernel (a consumer's debug build
/// would take seconds a frame in Swift); every byte must be the Swift's.
@Suite("Gamut conversion kernel")
struct GamutLookupKernelTests {
    static let conversions: [(String, RGBPrimaries, TransferFunction, RGBPrimaries, TransferFunction)] = [
        ("sRGB to P3", .sRGB, .sRGB, .displayP3, .sRGB),
        ("P3 to sRGB (clipped)", .displayP3, .sRGB, .sRGB, .sRGB),
        ("BT.2020 linear to sRGB", .bt2020, .linear, .sRGB, .sRGB),
    ]

    @Test(arguments: [(33, 7), (1, 1), (130, 3)])
    func kernelMatchesTheSwift(width: Int, height: Int) throws {
        var random = SplitMix64(seed: UInt64(width * 100 + height))
        let bgra = (0..<(width * height * 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for (name, fromPrimaries, fromCurve, toPrimaries, toCurve) in Self.conversions {
            let matrix = RGBColorSpace(primaries: fromPrimaries, transferFunction: fromCurve)
                .conversionMatrix(to: RGBColorSpace(primaries: toPrimaries, transferFunction: toCurve))
            let expected = ReferenceGamutConversion(decode: fromCurve, matrix: matrix, encode: toCurve).convert(bgra)
            let lookup = GamutLookup(decode: fromCurve, matrix: matrix, encode: toCurve)
            let source = CVBuffer(format: .bgra, width: width, height: height)
            Self.fill(source, with: bgra)
            let destination = CVBuffer(format: .bgra, width: width, height: height)
            lookup.apply(from: source, into: destination)
            #expect(Self.bytes(of: destination) == expected, "\(name) into another buffer")
            // In place, as the writer converts a frame it decoded into its scratch buffer.
            lookup.apply(from: source, into: source)
            #expect(Self.bytes(of: source) == expected, "\(name) in place")
            #expect(expected != bgra, "\(name) changes the pixels")
        }
    }

    /// Copies tightly packed BGRA rows into the buffer's (padded) rows.
    static func fill(_ buffer: CVBuffer, with bgra: [UInt8]) {
        let rowBytes = buffer.width * 4
        withExtendedLifetime(buffer) {
            let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
            for row in 0..<buffer.height {
                for column in 0..<rowBytes { base[row * buffer.bytesPerRow(0) + column] = bgra[row * rowBytes + column] }
            }
        }
    }

    /// The buffer's BGRA rows, tightly packed.
    static func bytes(of buffer: CVBuffer) -> [UInt8] {
        let rowBytes = buffer.width * 4
        return withExtendedLifetime(buffer) {
            let base = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
            return (0..<buffer.height).flatMap { row in (0..<rowBytes).map { base[row * buffer.bytesPerRow(0) + $0] } }
        }
    }
}
