import CRenderKernels

/// Camera-native colour statistics of one frame, for auto white balance and the grey-world
/// gains: the frame split into a `grid`×`grid` array of zones, each with the mean sensor
/// signal of its samples.
///
/// Gathered from the sensor codes before the ISP, so they do not depend on the gains in
/// use (as the statistics block of a real ISP, which sits before white balance). Samples
/// are every 4th pixel of every 4th row, as `FrameStatistics` takes them; a sample with any
/// channel near clipping is left out of its zone's mean (its colour is lost), but counted.
/// Zone column z covers pixels with ⌊grid·x / width⌋ = z, so zones 4 ..< 12 of a 16-zone grid
/// are exactly the centre half of the frame in each dimension.
///
/// Each worker accumulates integer sums into its own buffer (`accumulate`); `merge` adds
/// them up, so results do not depend on how rows were split. Nothing is allocated per frame.
/// Both loops are C (`oc_zone_accumulate`, `oc_zone_merge`), fast in a debug build too.
final class ZoneStatistics: @unchecked Sendable {
    /// Zones across and down.
    static let grid = Int(OC_ZONE_GRID)
    static let zoneCount = grid * grid
    /// UInt32 words per zone in a worker buffer: sums of R, G, B codes, unclipped samples,
    /// all samples.
    static let words = Int(OC_ZONE_WORDS)
    /// Sampling step in x (rows are chosen by `FrameStatistics.samples(row:)`).
    static let step = FrameStatistics.step

    /// Per zone after `merge`: mean signal of unclipped samples, R, G, B, relative to white
    /// (the clipping level above black), and in `w` the number of unclipped samples.
    let zones: UnsafeMutablePointer<SIMD4<Double>>
    /// Per zone after `merge`: all samples taken, clipped or not.
    let samples: UnsafeMutablePointer<Int>

    init() {
        zones = .allocate(capacity: ZoneStatistics.zoneCount)
        zones.initialize(repeating: .zero, count: ZoneStatistics.zoneCount)
        samples = .allocate(capacity: ZoneStatistics.zoneCount)
        samples.initialize(repeating: 0, count: ZoneStatistics.zoneCount)
    }

    deinit {
        zones.deallocate()
        samples.deallocate()
    }

    /// A zeroed worker buffer; the caller owns it.
    static func makeBuffer() -> UnsafeMutablePointer<UInt32> {
        let buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: zoneCount * words)
        buffer.initialize(repeating: 0, count: zoneCount * words)
        return buffer
    }

    /// Adds the sampled pixels of row `y` of a `width`×`height` frame (`raw`: R, G, B runs
    /// of sensor codes) to `buffer`. Samples with a channel at or above `clip` are counted
    /// but not summed.
    static func accumulate(
        _ raw: UnsafePointer<UInt16>, width: Int, row y: Int, height: Int, clip: UInt16,
        into buffer: UnsafeMutablePointer<UInt32>
    ) {
        oc_zone_accumulate(raw, width, y, height, clip, buffer)
    }

    /// Sums the worker buffers into `zones` and `samples` and zeroes the buffers. `black`
    /// is the black level and `white` the signal above black that counts as 1.
    func merge(_ buffers: [UnsafeMutablePointer<UInt32>], black: Double, white: Double) {
        // Each zone's SIMD4 is four doubles, and a buffer of non-optional pointers has the
        // layout of C's array of pointers.
        zones.withMemoryRebound(to: Double.self, capacity: 4 * ZoneStatistics.zoneCount) { zones in
            buffers.withUnsafeBufferPointer { pointers in
                pointers.withMemoryRebound(to: UnsafeMutablePointer<UInt32>?.self) {
                    oc_zone_merge($0.baseAddress, $0.count, black, white, zones, samples)
                }
            }
        }
    }

    /// Gains that make the mean of the centre half of the frame (zones in the middle half
    /// of each dimension) neutral: each channel's gain is the largest channel mean over its
    /// own, so the smallest gain is 1; capped at `maxGain`. (1, 1, 1) without signal.
    func centreGrayWorldGains(maxGain: Double) -> SIMD3<Double> {
        let grid = ZoneStatistics.grid
        var sum = SIMD3<Double>()
        for row in (grid / 4)..<(grid * 3 / 4) {
            for column in (grid / 4)..<(grid * 3 / 4) {
                let zone = zones[row * grid + column]
                sum += SIMD3(zone.x, zone.y, zone.z) * zone.w
            }
        }
        guard sum.min() > 0 else { return SIMD3(repeating: 1) }
        let gains = sum.max() / sum
        return SIMD3(min(gains.x, maxGain), min(gains.y, maxGain), min(gains.z, maxGain))
    }
}
