import CRenderKernels
import ColorScience
import Foundation

/// Estimates the scene illuminant from a frame's zone statistics: grey world, restricted to
/// the zones that could be grey under a light on the camera's Planckian locus.
///
/// Plain grey world (the mean of everything is grey) fails on scenes with a dominant colour,
/// such as the colour chart. Here, after dropping zones that are mostly clipped or too dark
/// to trust (noise and black level dominate), each zone's colour is taken as camera
/// log-chroma (log R/G, log B/G), where a change of light is a shift. Then:
/// 1. *Robust locus search* (after libcamera's Bayesian AWB, docs `color-and-sensor.md` §6):
///    walk the camera's locus (the camera neutral of each Planckian white, 2000–12000 K in
///    `miredStep` steps) and pick the point with the least Σ weight·min(d², `greyRadius`²)
///    over zones, d the zone's distance from the point. Coloured zones add a constant and
///    cannot pull the result; the largest cluster of zones near the locus wins.
/// 2. *Grey world on the grey zones*: average the signal of the zones within `greyRadius`
///    of that point, recentre on their mean and average again (which follows the cluster
///    off the locus when the light has a tint).
/// 3. *Back to a white*: the DNG model turns the mean camera neutral into a chromaticity,
///    then temperature and tint; the tint is held to ±`tintBand` (lights are near the
///    locus) and the temperature to the searched range.
///
/// Zone weights are their unclipped sample counts. Nothing is allocated per call: the
/// scratch arrays are made once. The per-zone loops are C (`oc_grey_candidates`,
/// `oc_locus_search`, `oc_grey_mean`): the search visits every zone at each of some 80
/// locus points each frame, too slow for real time in a debug build as Swift.
struct IlluminantEstimator: Sendable {
    /// The temperatures searched, kelvin.
    static let temperatureRange = 2000.0...12000.0
    /// Locus spacing for the robust search, mired (≈ 0.02 in log-chroma at mid temperatures,
    /// a fraction of `greyRadius`; the final estimate does not depend on it).
    static let miredStep = 5.0
    /// Log-chroma distance within which a zone may be grey: wider than the spread of the
    /// scene's near-neutral surfaces, narrower than any chart colour.
    var greyRadius = 0.08
    /// Largest |tint| of an estimate.
    var tintBand = 25.0
    /// Zones darker than this (green, relative to white) are left out.
    var darkLevel = 0.01
    /// Zones with fewer unclipped samples than this share of their samples are left out.
    var minUnclippedShare = 0.5

    let model: CameraColorModel
    /// The locus in camera log-chroma, cool to warm, as (log R/G, log B/G) pairs.
    private let locus: [Double]
    /// Valid zones of the current frame, `zoneCount` of them: log-chroma and weight, three
    /// doubles each.
    private var chroma = [Double](repeating: 0, count: 3 * ZoneStatistics.zoneCount)
    /// Their mean signal, R, G, B, in the order of `chroma`.
    private var signal = [Double](repeating: 0, count: 3 * ZoneStatistics.zoneCount)
    private var zoneCount = 0

    init(model: CameraColorModel) {
        self.model = model
        let range = IlluminantEstimator.temperatureRange
        let miredRange = (1e6 / range.upperBound)...(1e6 / range.lowerBound)
        locus = stride(from: miredRange.lowerBound, through: miredRange.upperBound, by: IlluminantEstimator.miredStep)
            .flatMap { mired in
                let white = TemperatureTint(temperature: 1e6 / mired, tint: 0).chromaticity
                let point = IlluminantEstimator.logChroma(model.neutral(forWhite: white))
                return [point.x, point.y]
            }
    }

    /// (log R/G, log B/G) of a positive camera signal.
    static func logChroma(_ rgb: SIMD3<Double>) -> SIMD2<Double> {
        SIMD2(log(rgb.x / rgb.y), log(rgb.z / rgb.y))
    }

    /// The illuminant of the frame `statistics` describe, or nil when no zone could be grey.
    mutating func estimate(_ statistics: ZoneStatistics) -> TemperatureTint? {
        collectZones(statistics)
        guard zoneCount > 0 else { return nil }
        // 1. The locus point with the most grey-looking zones around it.
        var index = 0
        let count = zoneCount, limit = greyRadius * greyRadius
        chroma.withUnsafeBufferPointer { chroma in
            locus.withUnsafeBufferPointer { oc_locus_search(chroma.baseAddress, count, $0.baseAddress, $0.count / 2, limit, &index) }
        }
        let best = SIMD2(locus[2 * index], locus[2 * index + 1])
        // 2. Grey world over the zones near it, twice, following the cluster.
        guard let first = meanSignal(near: best), let neutral = meanSignal(near: IlluminantEstimator.logChroma(first))
        else { return nil }
        // 3. The white whose camera neutral that is, held near the locus.
        let white = TemperatureTint(model.white(forNeutral: neutral / neutral.max()))
        let range = IlluminantEstimator.temperatureRange
        return TemperatureTint(
            temperature: min(max(white.temperature, range.lowerBound), range.upperBound),
            tint: min(max(white.tint, -tintBand), tintBand))
    }

    /// Fills `chroma` and `signal` with the zones fit to judge colour by.
    private mutating func collectZones(_ statistics: ZoneStatistics) {
        var found = 0
        let share = minUnclippedShare, dark = darkLevel, zones = ZoneStatistics.zoneCount
        statistics.zones.withMemoryRebound(to: Double.self, capacity: 4 * zones) { means in
            chroma.withUnsafeMutableBufferPointer { chroma in
                signal.withUnsafeMutableBufferPointer {
                    oc_grey_candidates(
                        means, statistics.samples, zones, share, dark, chroma.baseAddress, $0.baseAddress, &found)
                }
            }
        }
        zoneCount = found
    }

    /// The weighted mean signal of the zones within `greyRadius` of `centre`, or nil.
    private func meanSignal(near centre: SIMD2<Double>) -> SIMD3<Double>? {
        // Σ signal · weight, then Σ weight.
        var sums = (0.0, 0.0, 0.0, 0.0)
        withUnsafeMutablePointer(to: &sums) {
            $0.withMemoryRebound(to: Double.self, capacity: 4) { out in
                chroma.withUnsafeBufferPointer { chroma in
                    signal.withUnsafeBufferPointer {
                        oc_grey_mean(
                            chroma.baseAddress, $0.baseAddress, zoneCount, centre.x, centre.y, greyRadius * greyRadius, out)
                    }
                }
            }
        }
        let sum = SIMD3(sums.0, sums.1, sums.2), weight = sums.3
        guard weight > 0, sum.min() > 0 else { return nil }
        return sum / weight
    }
}
