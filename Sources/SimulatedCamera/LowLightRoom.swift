/// The `lowlight` scene: a living room at night, lit to 5 lux when chosen.
///
/// Layout (normalised coordinates): a warm grey wall (0.45) above a wooden floor (0.18) from
/// y 0.72; a door (0.30, brown) at x 0.06 ... 0.24, y 0.18 ... 0.72; a framed picture at
/// x 0.40 ... 0.60, y 0.20 ... 0.38 (a frame of 0.05, the picture a 2×3 grid of muted
/// colours); a sofa (0.10, dark blue) at x 0.55 ... 0.95, y 0.52 ... 0.80; a white cushion
/// (0.80) on it; a bookshelf with a row of books at x 0.28 ... 0.45, y 0.45 ... 0.72.
///
/// Depth: wall, door and picture 3.5 m; bookshelf 3.2 m; sofa and cushion 2.2 m; the floor
/// from 3.5 m at its top edge to 1.5 m at the bottom of the frame.
enum LowLightRoom {
    static func reflectance(x: Double, y: Double) -> SIMD3<Float> {
        if x >= 0.55, x < 0.95, y >= 0.52, y < 0.80 {
            if x >= 0.62, x < 0.72, y >= 0.55, y < 0.63 { return SIMD3(repeating: 0.80) }
            return SIMD3(0.06, 0.08, 0.16)
        }
        if x >= 0.28, x < 0.45, y >= 0.45, y < 0.72 {
            // Books: vertical strips of four colours, 0.015 wide.
            let book = Int((x - 0.28) / 0.015) % 4
            let colours: [SIMD3<Float>] = [SIMD3(0.45, 0.08, 0.06), SIMD3(0.08, 0.25, 0.10), SIMD3(0.60, 0.55, 0.40), SIMD3(0.10, 0.12, 0.35)]
            return y < 0.50 ? SIMD3(0.20, 0.13, 0.08) : colours[book]
        }
        if x >= 0.40, x < 0.60, y >= 0.20, y < 0.38 {
            guard x >= 0.415, x < 0.585, y >= 0.215, y < 0.365 else { return SIMD3(repeating: 0.05) }
            let cell = Int((x - 0.415) / 0.17 * 3) + 3 * Int((y - 0.215) / 0.15 * 2)
            let colours: [SIMD3<Float>] = [
                SIMD3(0.50, 0.30, 0.20), SIMD3(0.20, 0.35, 0.50), SIMD3(0.55, 0.50, 0.25),
                SIMD3(0.25, 0.40, 0.25), SIMD3(0.40, 0.20, 0.35), SIMD3(0.65, 0.60, 0.55),
            ]
            return colours[min(cell, 5)]
        }
        if x >= 0.06, x < 0.24, y >= 0.18, y < 0.72 { return SIMD3(0.30, 0.20, 0.12) }
        if y >= 0.72 { return SIMD3(0.22, 0.16, 0.10) * Float(0.8 + 0.4 * (y - 0.72) / 0.28) }
        // The wall darkens a little toward the top, away from the (unseen) lamp.
        return SIMD3(0.47, 0.45, 0.41) * Float(0.8 + 0.2 * y / 0.72)
    }
}
