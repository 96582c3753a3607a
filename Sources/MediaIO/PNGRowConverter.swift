import CaptureCore
import Foundation

/// Turns a PNG's RGB or RGBA rows (8 or 16 bits, after libpng's expansion) into a scene
/// picture: samples to linear light by the file's curve, alpha over white paper, averaged
/// down to the output size as the rows come (`PictureResampler`).
struct PNGRowConverter {
    /// How the file encodes light.
    enum Curve: Equatable {
        case sRGB
        /// sample = linear^(1/exponent): linear = sample^exponent.
        case power(Float)
    }

    let width: Int
    let channels: Int
    let sixteenBit: Bool
    let curve: Curve
    /// Linear light of each sample value (256 or 65536 entries).
    private let table: [Float]

    init(width: Int, channels: Int, sixteenBit: Bool, curve: Curve) {
        self.width = width
        self.channels = channels
        self.sixteenBit = sixteenBit
        self.curve = curve
        let levels = sixteenBit ? 65536 : 256
        if curve == .sRGB && !sixteenBit {
            table = SRGBCodes.linear
        } else {
            let top = Float(levels - 1)
            table = (0..<levels).map { value in
                switch curve {
                case .sRGB: SRGBCodes.decode(Float(value) / top)
                case .power(let exponent): pow(Float(value) / top, exponent)
                }
            }
        }
    }

    /// The picture at `size` from `source.height` rows that `row(y)` hands out in order
    /// (each valid until the next call).
    func picture(size: PictureDecoder.Size, source: PictureDecoder.Size, row: (Int) throws -> UnsafePointer<UInt8>) rethrows
        -> PictureDecoder.Picture
    {
        if size == source && channels == 3 && !sixteenBit && curve == .sRGB {
            // Already what a picture holds: copy the rows.
            let samples = PageBuffer(count: 3 * size.width * size.height)
            for y in 0..<source.height {
                (samples.bytes + 3 * width * y).update(from: try row(y), count: 3 * width)
            }
            return PictureDecoder.Picture(width: size.width, height: size.height, samples: samples)
        }
        var resampler = PictureResampler(sourceWidth: source.width, sourceHeight: source.height, width: size.width, height: size.height)
        var linear = [Float](repeating: 0, count: 3 * width)
        try linear.withUnsafeMutableBufferPointer { linear in
            for y in 0..<source.height {
                convert(try row(y), into: linear.baseAddress!)
                resampler.add(UnsafePointer(linear.baseAddress!))
            }
        }
        return PictureDecoder.Picture(width: size.width, height: size.height, samples: resampler.output)
    }

    /// One row to linear RGB, composited over white where it has alpha.
    private func convert(_ row: UnsafePointer<UInt8>, into linear: UnsafeMutablePointer<Float>) {
        table.withUnsafeBufferPointer { table in
            let top: Float = sixteenBit ? 65535 : 255
            for x in 0..<width {
                let first = x * channels
                var rgb = SIMD3<Float>(
                    table[sample(row, first)], table[sample(row, first + 1)], table[sample(row, first + 2)])
                if channels == 4 {
                    // Alpha is linear coverage: the colour over the paper's white.
                    let alpha = Float(sample(row, first + 3)) / top
                    rgb = alpha * rgb + SIMD3(repeating: 1 - alpha)
                }
                linear[3 * x] = rgb.x
                linear[3 * x + 1] = rgb.y
                linear[3 * x + 2] = rgb.z
            }
        }
    }

    /// Sample `index` of the row (16-bit samples are big-endian).
    @inline(__always)
    private func sample(_ row: UnsafePointer<UInt8>, _ index: Int) -> Int {
        sixteenBit ? Int(row[2 * index]) << 8 | Int(row[2 * index + 1]) : Int(row[index])
    }
}
