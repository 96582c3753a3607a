import CRenderKernels
import ColorScience

/// Exposure statistics of one frame, gathered while the ISP writes it.
///
/// Every 4th pixel of every 4th row is sampled into a 256-bin histogram of the output's
/// 8-bit luma code (for BGRA, full-range BT.709 luma of the written R'G'B'); samples in
/// the centre quarter of the frame (the middle half in x and in y) count `centreWeight`
/// times, so metering is centre-weighted. Each worker fills its own histogram and
/// `init(merging:range:)` sums them, so the result does not depend on how rows were split.
package struct FrameStatistics: Sendable, Equatable {
    /// Bins of the luma histogram.
    static let bins = 256
    /// Weight of a centre sample against 1 for the rest.
    static let centreWeight = UInt32(OC_CENTRE_WEIGHT)
    /// Sampling step in x and y.
    static let step = Int(OC_STATISTICS_STEP)

    /// Weighted mean of Y', 0 ... 1.
    package var meanLuma: Float
    /// Weighted mean of the linear light of each sample (Y' decoded with the sRGB curve),
    /// relative to white: what auto exposure meters.
    package var meanLinear: Double
    /// Weighted share of samples at or above the top luma code (clipped highlights).
    package var clippedFraction: Double
    /// Weighted share of samples with Y' at or below 0.05 (near black, crushed shadows).
    package var darkFraction = 0.0

    package init(meanLuma: Float, meanLinear: Double, clippedFraction: Double) {
        self.meanLuma = meanLuma
        self.meanLinear = meanLinear
        self.clippedFraction = clippedFraction
    }

    /// Sums per-worker histograms (each `bins` counts) of codes in `range`.
    init(merging histograms: [UnsafeMutablePointer<UInt32>], range: YCbCrRange) {
        let top = range.lumaCode(1)
        var total = 0.0, luma = 0.0, linear = 0.0, clipped = 0.0, dark = 0.0
        for bin in 0..<FrameStatistics.bins {
            var count = 0.0
            for histogram in histograms { count += Double(histogram[bin]) }
            guard count > 0 else { continue }
            let signal = min(max(range.luma(fromCode: bin), 0), 1)
            total += count
            luma += count * signal
            linear += count * TransferFunction.sRGB.decode(signal)
            if bin >= top { clipped += count }
            if signal <= 0.05 { dark += count }
        }
        let scale = total > 0 ? 1 / total : 0
        self.init(meanLuma: Float(luma * scale), meanLinear: linear * scale, clippedFraction: clipped * scale)
        darkFraction = dark * scale
    }

    /// Whether row `y` is sampled.
    @inline(__always)
    static func samples(row y: Int) -> Bool { y % step == step / 2 }

    /// Adds the sampled pixels of one written luma row (row `y` of `height`); C
    /// (`oc_luma_histogram`), as every per-pixel loop of a frame.
    static func accumulate(
        luma: UnsafePointer<UInt8>, width: Int, row y: Int, height: Int, into histogram: UnsafeMutablePointer<UInt32>
    ) {
        oc_luma_histogram(luma, width, y, height, histogram)
    }

    /// Adds the sampled pixels of one written 10-bit luma row, binned by their top 8 bits.
    static func accumulate(
        luma10: UnsafePointer<UInt16>, width: Int, row y: Int, height: Int, into histogram: UnsafeMutablePointer<UInt32>
    ) {
        oc_luma10_histogram(luma10, width, y, height, histogram)
    }

    /// Adds the sampled pixels of one written BGRA row, as full-range BT.709 luma.
    static func accumulate(
        bgra: UnsafeRawPointer, width: Int, row y: Int, height: Int, into histogram: UnsafeMutablePointer<UInt32>
    ) {
        oc_bgra_histogram(bgra.assumingMemoryBound(to: UInt8.self), width, y, height, histogram)
    }
}
