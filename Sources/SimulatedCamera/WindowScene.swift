/// The `hdr` scene: a dark interior with a window onto a bright sky, for video HDR.
///
/// The room is lit only through the window (150 lux on its surfaces when chosen); the view
/// outside is a light source, given as radiance relative to the room's white:
/// - sky, x 0.30 ... 0.70, y 0.10 ... 0.40: 40 (bluish), the brightest thing;
/// - a sunlit facade outside, y 0.40 ... 0.55 in the window: 12;
/// - window frame and a mullion cross (x 0.495 ... 0.505, y 0.32 ... 0.33): 0.05;
/// - wall 0.45, falling to 0.25 toward the corners; floor from y 0.75: 0.12;
/// - a dark sofa at x 0.04 ... 0.30, y 0.58 ... 0.88: 0.04;
/// - a table top (0.35) at x 0.60 ... 0.92, y 0.66 ... 0.70 and the shadow under it, down to
///   y 0.95: 0.01 — the darkest thing; sky / shadow = 4000:1 (12 EV).
///
/// Depth: the wall and window 4 m; outside (sky, facade) at infinity (use 1000 m); the sofa
/// 2.5 m; the table and its shadow 1.8 m; floor from 4 m at its top edge to 1.5 m at the bottom.
enum WindowScene {
    static let window = (minX: 0.30, maxX: 0.70, minY: 0.10, maxY: 0.55)
    static let skyRadiance: Float = 40
    static let facadeRadiance: Float = 12
    static let shadowReflectance: Float = 0.01

    static func reflectance(x: Double, y: Double) -> SIMD3<Float> {
        let frame = 0.012
        if x >= window.minX - frame, x < window.maxX + frame, y >= window.minY - frame, y < window.maxY + frame {
            let insideGlass = x >= window.minX && x < window.maxX && y >= window.minY && y < window.maxY
            let mullion = abs(x - 0.5) < 0.005 || abs(y - 0.325) < 0.005
            if !insideGlass || mullion { return SIMD3(repeating: 0.05) }
            if y < 0.40 { return SIMD3(0.85, 0.95, 1.25) * skyRadiance }
            return SIMD3(1.1, 1.0, 0.85) * facadeRadiance
        }
        if x >= 0.04, x < 0.30, y >= 0.58, y < 0.88 { return SIMD3(0.045, 0.04, 0.035) }
        if x >= 0.60, x < 0.92, y >= 0.66, y < 0.70 { return SIMD3(0.38, 0.30, 0.22) }
        if x >= 0.60, x < 0.92, y >= 0.70, y < 0.95 { return SIMD3(repeating: shadowReflectance) }
        if y >= 0.75 { return SIMD3(0.13, 0.12, 0.10) }
        // Light from the window falls off toward the room's corners.
        let dx = x - 0.5, dy = y - 0.35
        let falloff = Float(max(0.55, 1 - 1.2 * (dx * dx + dy * dy)))
        return SIMD3(0.46, 0.45, 0.43) * falloff
    }
}
