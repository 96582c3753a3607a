import Foundation
import CaptureCore

/// Spot metering around the exposure point of interest.
///
/// The frame statistics meter the whole frame with the centre quarter weighted up; that is
/// the default (point (0.5, 0.5)). Elsewhere, the zone statistics weigh a Gaussian spot of
/// `sigma` (a fraction of the frame, so ~20 % of it carries most of the weight) centred on
/// the point, and the metered light is the frame's mean scaled by spot ÷ centre-weighted
/// zone mean. The ratio keeps the metering in the frame statistics' units (output light,
/// after the tone curve), so moving the point only moves what the loop looks at.
enum ExposureMetering {
    /// Spot radius (standard deviation) as a fraction of the frame's width and height.
    static let sigma = 0.08

    /// The light auto exposure meters for `point`, given the frame's centre-weighted mean
    /// linear light, its zone statistics and the white-balance gains it was rendered with.
    static func meter(
        meanLinear: Double, zones: ZoneStatistics, gains: SIMD3<Double>, point: PointOfInterest
    ) -> Double {
        guard abs(point.x - 0.5) > 1e-6 || abs(point.y - 0.5) > 1e-6 else { return meanLinear }
        let grid = ZoneStatistics.grid
        var spot = 0.0, spotWeight = 0.0, centre = 0.0, centreWeight = 0.0
        for row in 0..<grid {
            for column in 0..<grid {
                let light = luminance(zones, row * grid + column, gains: gains)
                // Same weighting as `FrameStatistics`: the centre half in x and y counts more.
                let inner = (grid / 4..<grid * 3 / 4).contains(row) && (grid / 4..<grid * 3 / 4).contains(column)
                let w = inner ? Double(FrameStatistics.centreWeight) : 1
                centre += w * light
                centreWeight += w
                let dx = (Double(column) + 0.5) / Double(grid) - point.x
                let dy = (Double(row) + 0.5) / Double(grid) - point.y
                let g = exp(-(dx * dx + dy * dy) / (2 * sigma * sigma))
                spot += g * light
                spotWeight += g
            }
        }
        guard centre > 0, spotWeight > 0 else { return meanLinear }
        return meanLinear * (spot / spotWeight) / (centre / centreWeight)
    }

    /// A zone's white-balanced luminance relative to white, clipped samples counting as white.
    private static func luminance(_ zones: ZoneStatistics, _ zone: Int, gains: SIMD3<Double>) -> Double {
        let all = Double(zones.samples[zone])
        guard all > 0 else { return 0 }
        let z = zones.zones[zone]
        let rgb = (SIMD3(z.x, z.y, z.z) * gains).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        let y = 0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
        return (y * z.w + (all - z.w)) / all
    }
}
