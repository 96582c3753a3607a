import Foundation

/// A seeded table of standard-normal samples, shared by every frame of a stream.
///
/// Drawing three Gaussian numbers per pixel per frame from a generator would cost more
/// than the rest of the pipeline. Instead the table holds `count` N(0, 1) samples
/// (Box–Muller from SplitMix64, fixed point: value / `unit`), generated once from the
/// seed. Each row of each colour channel of each frame reads a contiguous window that
/// starts at an offset hashed from (seed, frame index, row, channel), and the sensor scales
/// each sample by the pixel's own noise standard deviation. Windows are long compared
/// with the table, so rows share sample sequences at random shifts; pixel noise is still
/// N(0, σ²) with neighbours uncorrelated, and frame pairs have independent noise
/// except where two windows happen to coincide (probability 1/`count` per row).
/// The table is padded past its end so a window never wraps.
final class NoiseTable: @unchecked Sendable {
    /// Samples in the table proper (a power of two, so offsets are a mask).
    static let count = 1 << 17
    /// Fixed-point scale: a sample of value `unit` is one standard deviation.
    static let unit: Float = 4096
    /// The widest row a window can cover.
    static let maxWindow = 4096 * 2

    let seed: UInt64
    let samples: UnsafeMutablePointer<Int16>

    init(seed: UInt64) {
        self.seed = seed
        let total = NoiseTable.count + NoiseTable.maxWindow
        samples = .allocate(capacity: total)
        var rng = SplitMix64(seed: SplitMix64.hash(seed, 0x6E6F_6973_65))
        var index = 0
        while index < NoiseTable.count {
            // Box–Muller: two uniforms give two independent normals.
            let u1 = max(rng.nextUnit(), 0x1p-53)
            let u2 = rng.nextUnit()
            let radius = (-2 * log(u1)).squareRoot()
            let angle = 2 * Double.pi * u2
            samples[index] = NoiseTable.quantize(radius * cos(angle))
            samples[index + 1] = NoiseTable.quantize(radius * sin(angle))
            index += 2
        }
        for pad in 0..<NoiseTable.maxWindow {
            samples[NoiseTable.count + pad] = samples[pad]
        }
    }

    deinit {
        samples.deallocate()
    }

    private static func quantize(_ value: Double) -> Int16 {
        Int16(max(-32767, min(32767, (value * Double(unit)).rounded())))
    }

    /// The window for one row and channel of one frame.
    @inline(__always)
    func window(frame: Int64, row: Int, channel: Int) -> UnsafePointer<Int16> {
        let key = UInt64(bitPattern: Int64(row) << 2 | Int64(channel))
        let offset = Int(SplitMix64.hash(seed, UInt64(bitPattern: frame), key) & UInt64(NoiseTable.count - 1))
        return UnsafePointer(samples + offset)
    }
}
