import ColorScience

/// Exposure statistics of one frame, gathered during the ISP pass.
///
/// Every 4th pixel of every 4th row is sampled into a 256-bin histogram of full-range
/// BT.709 luma Y'; samples in the centre quarter of the frame (the middle half in x and
/// in y) count `centreWeight` times, so metering is centre-weighted. Each worker fills
/// its own histogram; `init(merging:)` sums them, so the result does not depend on how
/// rows were split.
package struct FrameStatistics: Sendable, Equatable {
    /// Bins of the luma histogram.
    static let bins = 256
    /// Weight of a centre sample against 1 for the rest.
    static let centreWeight: UInt32 = 3
    /// Sampling step in x and y.
    static let step = 4

    /// Weighted mean of Y', 0 ... 1.
    package var meanLuma: Float
    /// Weighted mean of the linear light of each sample (Y' decoded with the sRGB curve),
    /// relative to white: what auto exposure meters.
    package var meanLinear: Double
    /// Weighted share of samples at the top bin (clipped highlights).
    package var clippedFraction: Double

    package init(meanLuma: Float, meanLinear: Double, clippedFraction: Double) {
        self.meanLuma = meanLuma
        self.meanLinear = meanLinear
        self.clippedFraction = clippedFraction
    }

    /// Linear light of each bin.
    private static let linearOfBin: [Double] = (0..<bins).map {
        TransferFunction.sRGB.decode(Double($0) / Double(bins - 1))
    }

    /// Sums per-worker histograms (each `bins` counts) into statistics.
    init(merging histograms: [UnsafeMutablePointer<UInt32>]) {
        var total = 0.0, luma = 0.0, linear = 0.0
        for bin in 0..<FrameStatistics.bins {
            var count = 0.0
            for histogram in histograms { count += Double(histogram[bin]) }
            total += count
            luma += count * Double(bin) / Double(FrameStatistics.bins - 1)
            linear += count * FrameStatistics.linearOfBin[bin]
        }
        var top = 0.0
        for histogram in histograms { top += Double(histogram[FrameStatistics.bins - 1]) }
        let scale = total > 0 ? 1 / total : 0
        self.init(meanLuma: Float(luma * scale), meanLinear: linear * scale, clippedFraction: top * scale)
    }

    /// Whether row `y` is sampled.
    @inline(__always)
    static func samples(row y: Int) -> Bool { y % step == step / 2 }

    /// Adds the sampled pixels of one row of sensor codes (R, G, B runs) to `histogram`.
    static func accumulate(
        _ raw: UnsafePointer<UInt16>, width: Int, row y: Int, height: Int, isp: ISP,
        into histogram: UnsafeMutablePointer<UInt32>
    ) {
        let lr = isp.toneTable(0), lg = isp.toneTable(1), lb = isp.toneTable(2)
        // Full-range BT.709 luma in 16-bit fixed point, scaled from R' × ISP.one to 0 ... 255.
        let scale = 255.0 * 65536 / Double(ISP.one)
        let kr = Int32((0.2126 * scale).rounded()), kb = Int32((0.0722 * scale).rounded())
        let kg = Int32(scale.rounded()) - kr - kb
        let centreRow = y >= height / 4 && y < height * 3 / 4
        let lo = width / 4, hi = width * 3 / 4
        var x = step / 2
        while x < width {
            let r = Int32(lr[Int(raw[x])]), g = Int32(lg[Int(raw[width + x])]), b = Int32(lb[Int(raw[2 * width + x])])
            let bin = Int(min((kr &* r &+ kg &* g &+ kb &* b &+ 32768) >> 16, 255))
            histogram[bin] &+= centreRow && x >= lo && x < hi ? centreWeight : 1
            x += step
        }
    }
}
