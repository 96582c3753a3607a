import Foundation

/// The chart scene's grey ramp and glyph strokes, between the markers and the colour chart
/// and between the chart and the ball's path.
///
/// - Grey ramp: 12 neutral steps at x 0.26 ... 0.74, y 0.19 ... 0.27, reflectance from 0.03
///   to 0.90 in equal ratios (×1.36, about 0.45 EV a step), for tone-curve and noise checks.
/// - Glyph strokes: a white card (0.85) at x 0.28 ... 0.72, y 0.705 ... 0.775 carrying a line of
///   18 seeded 5×7 dot-matrix glyphs in near-black ink (0.03): text-like high-contrast
///   edges, as focus and sharpening need.
///
/// Depth (for the focus model): the whole chart board, ramp and card included, is a plane
/// 1.2 m from the camera; the background wall 3 m; the ball 0.8 m.
enum ChartExtras {
    static let ramp = (minX: 0.26, maxX: 0.74, minY: 0.19, maxY: 0.27)
    static let rampSteps = 12
    static let card = (minX: 0.28, maxX: 0.72, minY: 0.705, maxY: 0.775)
    static let glyphCount = 18
    static let ink: Float = 0.03
    static let paper: Float = 0.85

    /// Reflectance of step `index` (0 darkest).
    static func rampReflectance(_ index: Int) -> Float {
        0.03 * Float(pow(30.0, Double(index) / Double(rampSteps - 1)))
    }

    /// The ramp's or card's reflectance at (x, y), or nil elsewhere.
    static func reflectance(x: Double, y: Double, seed: UInt64) -> SIMD3<Float>? {
        if x >= ramp.minX, x < ramp.maxX, y >= ramp.minY, y < ramp.maxY {
            let step = min(Int((x - ramp.minX) / (ramp.maxX - ramp.minX) * Double(rampSteps)), rampSteps - 1)
            return SIMD3(repeating: rampReflectance(step))
        }
        guard x >= card.minX, x < card.maxX, y >= card.minY, y < card.maxY else { return nil }
        // Glyph cells of 6×9 dots (5×7 glyph, one dot of spacing around), centred on the card.
        let u = (x - card.minX) / (card.maxX - card.minX) * Double(glyphCount * 6)
        let v = (y - card.minY) / (card.maxY - card.minY) * 9 - 1
        let cell = Int(u) / 6
        let column = Int(u) % 6
        let row = Int(v.rounded(.down))
        guard column < 5, row >= 0, row < 7 else { return SIMD3(repeating: paper) }
        return SIMD3(repeating: isInk(cell: cell, column: column, row: row, seed: seed) ? ink : paper)
    }

    /// Whether dot (column, row) of glyph `cell` is inked: a seeded stroke pattern with a
    /// vertical stem on the left or right and two or three horizontal bars, as letters have.
    /// Which glyph dots are ink for `seed`: 1 or 0 for each cell, row (7) and column (5), in
    /// that order (for the static layer's C kernel).
    static func inkTable(seed: UInt64) -> [UInt8] {
        var table: [UInt8] = []
        table.reserveCapacity(glyphCount * 35)
        for cell in 0..<glyphCount {
            for row in 0..<7 {
                for column in 0..<5 { table.append(isInk(cell: cell, column: column, row: row, seed: seed) ? 1 : 0) }
            }
        }
        return table
    }

    private static func isInk(cell: Int, column: Int, row: Int, seed: UInt64) -> Bool {
        let bits = SplitMix64.hash(seed, 0x474C_5950_48, UInt64(cell))
        let stemLeft = bits & 1 == 0
        let stemRight = bits & 2 == 0 || !stemLeft
        if (column == 0 && stemLeft) || (column == 4 && stemRight) { return true }
        let bars = [0, 3, 6].filter { bits >> (2 + UInt64($0)) & 1 == 1 }
        return bars.contains(row) || (bars.isEmpty && row == 3)
    }
}
