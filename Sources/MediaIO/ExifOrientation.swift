import ImageOps

/// The EXIF Orientation tag (0x0112): how a viewer must turn the stored pixels to show
/// the picture upright. Raw values and case names match Apple's `CGImagePropertyOrientation`.
package enum ExifOrientation: UInt16, Sendable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirror left-right to show.
    case upMirrored = 2
    /// Turn 180 degrees to show.
    case down = 3
    /// Mirror top-bottom to show.
    case downMirrored = 4
    /// Mirror left-right, then turn 270 degrees clockwise.
    case leftMirrored = 5
    /// Turn 90 degrees clockwise to show ("Rotate 90 CW", a portrait photo from a landscape sensor).
    case right = 6
    /// Mirror left-right, then turn 90 degrees clockwise.
    case rightMirrored = 7
    /// Turn 270 degrees clockwise to show.
    case left = 8

    /// The orientation that asks a viewer to turn the pixels clockwise by `rotation` and then
    /// mirror the result left-right, the order `ImageTransform.transform` uses.
    package init(displayRotation rotation: Rotation, mirrored: Bool) {
        // Mirroring first and turning second is the same as turning the opposite way first
        // and mirroring second, so the mirrored quarter turns swap places.
        switch (rotation, mirrored) {
        case (.none, false): self = .up
        case (.none, true): self = .upMirrored
        case (.clockwise180, false): self = .down
        case (.clockwise180, true): self = .downMirrored
        case (.clockwise90, false): self = .right
        case (.clockwise90, true): self = .leftMirrored
        case (.clockwise270, false): self = .left
        case (.clockwise270, true): self = .rightMirrored
        }
    }

    /// The clockwise turn a viewer applies before mirroring (see `init(displayRotation:mirrored:)`).
    package var displayRotation: Rotation {
        switch self {
        case .up, .upMirrored: .none
        case .down, .downMirrored: .clockwise180
        case .right, .leftMirrored: .clockwise90
        case .left, .rightMirrored: .clockwise270
        }
    }

    /// Whether a viewer mirrors left-right after `displayRotation`.
    package var isMirrored: Bool {
        switch self {
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: true
        case .up, .down, .left, .right: false
        }
    }
}
