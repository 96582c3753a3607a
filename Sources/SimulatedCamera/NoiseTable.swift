import CaptureCore
import Foundation

/// A seeded table of normal samples, shared by every frame of a stream.
///
/// Drawing three Gaussian numbers per pixel per frame from a generator would cost more
/// than the rest of the pipeline. Instead the table holds `count` samples of N(0, s²)
/// (Box–Muller from SplitMix64; s = `SensorKernel.rootScale`, a constant the sensor's
/// fast square root leaves out), generated once from the seed. Each row of each colour
/// channel of each frame reads a contiguous window starting at an offset hashed from
/// (seed, frame index, row, channel), and the sensor scales each sample by the pixel's
/// own noise standard deviation.
///
/// So pixel noise is Gaussian with the right variance and uncorrelated between
/// neighbours; rows share sample sequences at random shifts, and the same pixel in two
/// frames gets independent noise unless their windows coincide (probability 1/`count`
/// per row). The table is padded past its end so a window never wraps.
final class NoiseTable: @unchecked Sendable {
    /// Samples in the table proper (a power of two, so offsets are a mask); 256 KB of
    /// floats, which stays in the L2 cache.
    static let count = 1 << 16
    /// The widest row a window can cover.
    static let maxWindow = 4096 * 2

    let seed: UInt64
    let samples: UnsafeMutablePointer<Float>

    init(seed: UInt64, scale: Float = SensorKernel.rootScale) {
        self.seed = seed
        let total = NoiseTable.count + NoiseTable.maxWindow
        samples = PageMemory.allocate(Float.self, count: total)
        var rng = SplitMix64(seed: SplitMix64.hash(seed, 0x6E6F_6973_65))
        var index = 0
        while index < NoiseTable.count {
            // Box–Muller: two uniforms give two independent standard normals.
            let u1 = max(rng.nextUnit(), 0x1p-53)
            let u2 = rng.nextUnit()
            let radius = (-2 * log(u1)).squareRoot()
            let angle = 2 * Double.pi * u2
            samples[index] = Float(radius * cos(angle)) * scale
            samples[index + 1] = Float(radius * sin(angle)) * scale
            index += 2
        }
        for pad in 0..<NoiseTable.maxWindow {
            samples[NoiseTable.count + pad] = samples[pad]
        }
    }

    deinit {
        PageMemory.deallocate(samples, count: NoiseTable.count + NoiseTable.maxWindow)
    }

    /// The window for one row and channel of one frame.
    @inline(__always)
    func window(frame: Int64, row: Int, channel: Int) -> UnsafePointer<Float> {
        let key = UInt64(bitPattern: Int64(row) << 2 | Int64(channel))
        let offset = Int(SplitMix64.hash(seed, UInt64(bitPattern: frame), key) & UInt64(NoiseTable.count - 1))
        return UnsafePointer(samples + offset)
    }
}
