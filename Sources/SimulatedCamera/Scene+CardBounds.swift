/// Where the scene's cards can be seen, so the static layer and the depth mask work out only
/// those pixels one by one (in Swift) and the rest with the chart's kernel and depth boxes.
///
/// Why: with a card in the scene (a code to scan, a picture) the whole layer was rasterised
/// per pixel in Swift, about a second for a 1920x1080 stream in a debug build (issue 30).
extension Scene {
    /// A rectangle of the view in normalised scene coordinates (bounds inclusive).
    package typealias SceneRect = (minX: Double, maxX: Double, minY: Double, maxY: Double)

    /// The rectangle each card may cover, or nil if one may cover any point of the view (a
    /// corner at or behind the camera's plane).
    package var pictureBounds: [SceneRect]? {
        var rects: [SceneRect] = []
        for picture in pictures {
            guard let rect = picture.bounds else { return nil }
            rects.append(rect)
        }
        return rects
    }

    /// The columns of a row at scene height `y` that a card may cover, given each column's
    /// scene x (`xs`, increasing), as ranges (they may overlap where cards do).
    static func cardColumns(y: Double, xs: [Double], bounds: [SceneRect]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for rect in bounds where y >= rect.minY && y <= rect.maxY {
            let first = xs.firstIndex { $0 >= rect.minX } ?? xs.count
            let end = xs.firstIndex { $0 > rect.maxX } ?? xs.count
            if first < end { ranges.append(first..<end) }
        }
        return ranges
    }
}

extension ScenePicture {
    /// The smallest rectangle of the view holding the card (its four corners projected: a
    /// flat card in front of the camera appears as a convex quadrilateral inside them),
    /// widened by a millionth for rounding; nil if a corner is at or behind the camera's plane.
    package var bounds: Scene.SceneRect? {
        let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        guard corners.allSatisfy({ depth(u: $0.0, v: $0.1) > 1e-6 }) else { return nil }
        let points = corners.map { project(u: $0.0, v: $0.1) }
        let margin = 1e-6
        return (
            points.map(\.x).min()! - margin, points.map(\.x).max()! + margin, points.map(\.y).min()! - margin,
            points.map(\.y).max()! + margin
        )
    }
}
