import ColorScience

/// The 24-patch colour chart in the middle of the simulated scene.
///
/// Patch colours follow the layout of the X-Rite ColorChecker Classic (4 rows of 6, the
/// last row a neutral ramp), given as 8-bit sRGB values of the post-2014 X-Rite CIELAB
/// data under D65 (see docs `color-and-sensor.md` §4; cyan, outside sRGB, is clipped).
/// Reflectances are the linear Rec.709 values of those codes.
enum ColorChart {
    /// Patches left to right, top to bottom, as 8-bit sRGB.
    static let sRGB8: [SIMD3<UInt8>] = [
        SIMD3(116, 79, 65), SIMD3(197, 144, 127), SIMD3(91, 120, 155),  // dark skin, light skin, blue sky
        SIMD3(91, 108, 64), SIMD3(131, 127, 175), SIMD3(95, 189, 172),  // foliage, blue flower, bluish green
        SIMD3(224, 124, 48), SIMD3(69, 90, 167), SIMD3(197, 80, 95),  // orange, purplish blue, moderate red
        SIMD3(93, 58, 104), SIMD3(156, 187, 58), SIMD3(227, 161, 39),  // purple, yellow green, orange yellow
        SIMD3(40, 62, 145), SIMD3(61, 147, 70), SIMD3(178, 54, 57),  // blue, green, red
        SIMD3(236, 200, 15), SIMD3(191, 79, 146), SIMD3(0, 133, 165),  // yellow, magenta, cyan
        SIMD3(241, 242, 235), SIMD3(201, 202, 201), SIMD3(161, 163, 163),  // white 9.5, neutral 8, neutral 6.5
        SIMD3(121, 121, 121), SIMD3(83, 84, 85), SIMD3(50, 50, 50),  // neutral 5, neutral 3.5, black 2
    ]

    static let columns = 6
    static let rows = 4

    /// Linear reflectance of each patch (Rec.709 primaries, 1 = perfect white).
    static let reflectance: [SIMD3<Float>] = sRGB8.map { code in
        SIMD3(
            TransferFunction.sRGB.decode(Float(code.x) / 255),
            TransferFunction.sRGB.decode(Float(code.y) / 255),
            TransferFunction.sRGB.decode(Float(code.z) / 255))
    }

    /// The chart's extent in normalised scene coordinates.
    static let minX = 0.26, maxX = 0.74, minY = 0.31, maxY = 0.69
    /// The black surround's reflectance.
    static let surround = SIMD3<Float>(repeating: 0.025)
    /// The share of each cell taken by the black gap around its patch.
    static let gap = 0.12

    /// The chart's reflectance at (x, y), or `nil` outside the chart.
    static func reflectance(x: Double, y: Double) -> SIMD3<Float>? {
        guard x >= minX, x < maxX, y >= minY, y < maxY else { return nil }
        let u = (x - minX) / (maxX - minX) * Double(columns)
        let v = (y - minY) / (maxY - minY) * Double(rows)
        let column = min(Int(u), columns - 1)
        let row = min(Int(v), rows - 1)
        let fu = u - Double(column)
        let fv = v - Double(row)
        let half = gap / 2
        guard fu > half, fu < 1 - half, fv > half, fv < 1 - half else { return surround }
        return reflectance[row * columns + column]
    }
}
