/// A clockwise rotation by a multiple of 90 degrees.
package enum Rotation: Int, Sendable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case clockwise180 = 180
    case clockwise270 = 270

    /// Whether the rotated image has width and height swapped.
    package var swapsDimensions: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The size of a `width` x `height` image after this rotation.
    package func rotatedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (height, width) : (width, height)
    }
}

/// A rotation plus mirroring, restated as the two things libyuv does natively:
/// read the source upside down (a negative height) and then turn it clockwise.
///
/// Mirroring the output left-right after turning by r is the same as flipping the source
/// upside down and turning by 180 - r. That folds every mirror into the rotate call,
/// so no mirrored case needs a second pass or a temporary image.
struct Orientation: Equatable {
    /// The clockwise turn applied after the optional flip.
    var turn: Rotation
    /// Whether the source is read bottom row first.
    var flipsSource: Bool

    init(rotation: Rotation, mirrored: Bool) {
        guard mirrored else {
            turn = rotation
            flipsSource = false
            return
        }
        flipsSource = true
        switch rotation {
        case .none: turn = .clockwise180
        case .clockwise90: turn = .clockwise90
        case .clockwise180: turn = .none
        case .clockwise270: turn = .clockwise270
        }
    }

    /// The height to hand libyuv's copy, convert and rotate functions: negative flips the source.
    func sourceHeight(_ height: Int) -> Int32 {
        flipsSource ? -Int32(height) : Int32(height)
    }

    /// The height to hand libyuv's mirror functions when `turn` is 180 degrees.
    ///
    /// Libyuv's 180-degree rotation mallocs a row on every call; a left-right mirror of the
    /// source read upside down is the same picture without that allocation. A flip
    /// followed by 180 degrees is a plain mirror, hence the inverted sign.
    func mirrorHeight(_ height: Int) -> Int32 {
        flipsSource ? Int32(height) : -Int32(height)
    }
}
