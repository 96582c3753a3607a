import Foundation

/// The `motion` scene: three balls crossing a textured wall at different heights, speeds and
/// sizes, for motion blur, subject-area and encoder tests.
///
/// Each ball runs in its own band of rows (so no two share a row): y 0.22 (radius 0.08,
/// 0.25 widths/s), y 0.50 (radius 0.10, 0.12 widths/s) and y 0.78 (radius 0.07, 0.40
/// widths/s), back and forth between x 0.1 and 0.9 (a triangle wave, phase from the seed).
/// The wall behind is the chart scene's textured background.
///
/// Depth: the wall 3 m; the balls 1.0 m, 2.0 m and 0.6 m (top to bottom).
enum MotionScene {
    struct Track {
        var y: Double
        var radius: Double
        var speed: Double
        var color: SIMD3<Float>
        var distance: Float
    }

    static let tracks = [
        Track(y: 0.22, radius: 0.08, speed: 0.25, color: SIMD3(0.80, 0.30, 0.04), distance: 1.0),
        Track(y: 0.50, radius: 0.10, speed: 0.12, color: SIMD3(0.05, 0.45, 0.60), distance: 2.0),
        Track(y: 0.78, radius: 0.07, speed: 0.40, color: SIMD3(0.65, 0.60, 0.05), distance: 0.6),
    ]

    /// The balls at `time` seconds.
    static func balls(at time: Double, seed: UInt64) -> [Scene.Ball] {
        tracks.enumerated().map { index, track in
            let phase = Double(SplitMix64.hash(seed, 0x4D4F_5449_4F4E, UInt64(index)) >> 11) * 0x1p-53
            // Position along a 0.8-wide back-and-forth path: a triangle wave.
            let travel = (phase * 1.6 + track.speed * time).truncatingRemainder(dividingBy: 1.6)
            let x = 0.1 + (travel < 0.8 ? travel : 1.6 - travel)
            return Scene.Ball(x: x, y: track.y, radius: track.radius, color: track.color, distance: track.distance)
        }
    }
}
