/// The TIFF and EXIF tags OpenCapture writes and reads, with their numbers.
///
/// IFD0 holds the TIFF tags (camera, orientation, software); the Exif sub-IFD, which IFD0
/// points to with `exifIFDPointer`, holds the shot's exposure and the image's colour and size.
package enum ExifTag: UInt16, Sendable, CaseIterable {
    // IFD0 (TIFF 6.0 tags).
    /// IFD1: 6 for a JPEG thumbnail.
    case compression = 0x0103
    case make = 0x010F
    case model = 0x0110
    case orientation = 0x0112
    case xResolution = 0x011A
    case yResolution = 0x011B
    case resolutionUnit = 0x0128
    case software = 0x0131
    case dateTime = 0x0132
    /// IFD1: where the thumbnail's JPEG starts, and its length.
    case jpegInterchangeFormat = 0x0201
    case jpegInterchangeFormatLength = 0x0202
    case yCbCrPositioning = 0x0213
    case imageDescription = 0x010E
    case artist = 0x013B
    case copyright = 0x8298
    case exifIFDPointer = 0x8769
    /// Where the GPS sub-IFD starts (its tags, numbered from 0, are `ExifMetadata.GPS`'s).
    case gpsInfoIFDPointer = 0x8825

    // Exif sub-IFD.
    case exposureTime = 0x829A
    case fNumber = 0x829D
    case exposureProgram = 0x8822
    /// Called PhotographicSensitivity since EXIF 2.3; Apple's dictionaries still say ISOSpeedRatings.
    case isoSpeedRatings = 0x8827
    case exifVersion = 0x9000
    case dateTimeOriginal = 0x9003
    case dateTimeDigitized = 0x9004
    case offsetTime = 0x9010
    case offsetTimeOriginal = 0x9011
    case offsetTimeDigitized = 0x9012
    case componentsConfiguration = 0x9101
    case flash = 0x9209
    case focalLength = 0x920A
    case userComment = 0x9286
    /// Apple's maker note (`AppleMakerNote`): a Live Photo still's content identifier.
    case makerNote = 0x927C
    case flashpixVersion = 0xA000
    case colorSpace = 0xA001
    case pixelXDimension = 0xA002
    case pixelYDimension = 0xA003
    case exposureMode = 0xA402
    case whiteBalance = 0xA403
    case focalLengthIn35mmFilm = 0xA405
    case lensMake = 0xA433
    case lensModel = 0xA434
}
