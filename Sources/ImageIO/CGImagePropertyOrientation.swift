/// How an image's stored pixels turn to show it upright, as Image I/O's
/// `CGImagePropertyOrientation` (CGImageProperties.h): the values of the EXIF and TIFF
/// Orientation tag, which is what `kCGImagePropertyOrientation` holds in a photo's metadata
/// (as a number: `CGImagePropertyOrientation(rawValue: UInt32(number))`).
@frozen
public enum CGImagePropertyOrientation: UInt32, Sendable {
    /// Stored upright (the default).
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Turned 180 degrees.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored left to right, then turned 90 degrees counter-clockwise.
    case leftMirrored = 5
    /// Turned 90 degrees clockwise to show (a portrait photo from a landscape sensor held
    /// upright, as the back camera's photos with a 90-degree rotation angle are marked).
    case right = 6
    /// Mirrored left to right, then turned 90 degrees clockwise.
    case rightMirrored = 7
    /// Turned 90 degrees counter-clockwise to show.
    case left = 8
}
