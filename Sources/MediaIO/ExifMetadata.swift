import Foundation

/// The EXIF and TIFF metadata OpenCapture writes into its JPEG photos and reads back.
///
/// Values are in the units callers think in (seconds, millimetres, an f-number as a
/// `Double`); `ExifMetadata+Directories` turns them into tagged EXIF values and back.
/// Every field is optional except the ones a valid photo always has. `JPEGEncoder` sets
/// the pixel dimensions to those of the image it encodes.
package struct ExifMetadata: Sendable, Hashable {
    /// Camera maker, such as "Apple" (TIFF Make).
    package var make: String?
    /// Camera model, such as "iPhone 15 Pro" (TIFF Model).
    package var model: String?
    /// The program that made the file (TIFF Software).
    package var software: String? = "OpenCapture"
    /// How a viewer turns the stored pixels to show them upright.
    package var orientation: ExifOrientation = .up
    /// When the shutter fired; written to the second as DateTimeOriginal, DateTimeDigitized and
    /// TIFF DateTime.
    package var dateTimeOriginal: Date?
    /// The local time's offset from UTC in seconds (OffsetTime tags). EXIF dates are local
    /// time, so without an offset a reader cannot place them; `nil` writes the current
    /// time zone's offset at `dateTimeOriginal`.
    package var timeZoneOffset: Int?
    /// Exposure time in seconds, written as a fraction such as 1/120.
    package var exposureTime: Double?
    /// The lens aperture as an f-number, such as 1.8.
    package var fNumber: Double?
    /// ISO sensitivity (ISOSpeedRatings, a SHORT: at most 65535).
    package var isoSpeed: Int?
    /// The lens's real focal length in millimetres.
    package var focalLength: Double?
    /// The focal length a 35 mm film camera would need for the same field of view.
    package var focalLengthIn35mmFilm: Int?
    /// Whether white balance was automatic.
    package var whiteBalance: WhiteBalance?
    /// Whether the flash fired and how it was set.
    package var flash: ExifFlash?
    /// How exposure was chosen (program, priority, manual).
    package var exposureProgram: ExposureProgram?
    /// Whether exposure was automatic, manual or bracketed.
    package var exposureMode: ExposureMode?
    /// Width of the compressed image in pixels (PixelXDimension).
    package var pixelWidth: Int?
    /// Height of the compressed image in pixels (PixelYDimension).
    package var pixelHeight: Int?
    /// The colour space of the pixels; OpenCapture's photos are sRGB.
    package var colorSpace: ColorSpace? = .sRGB
    /// The Live Photo content identifier shared by a still and its movie, written in
    /// Apple's maker note tag 0x0011 (exiftool: MediaGroupUUID).
    package var contentIdentifier: String?
    /// TIFF ImageDescription, Artist and Copyright.
    package var imageDescription: String?
    package var artist: String?
    package var copyright: String?
    /// EXIF UserComment (written with the ASCII character code), LensMake and LensModel.
    package var userComment: String?
    package var lensMake: String?
    package var lensModel: String?
    /// Where the photo was taken (the GPS sub-IFD).
    package var gps: ExifGPS?

    package init(
        make: String? = nil, model: String? = nil, software: String? = "OpenCapture",
        orientation: ExifOrientation = .up, dateTimeOriginal: Date? = nil, timeZoneOffset: Int? = nil,
        exposureTime: Double? = nil, fNumber: Double? = nil, isoSpeed: Int? = nil,
        focalLength: Double? = nil, focalLengthIn35mmFilm: Int? = nil,
        whiteBalance: WhiteBalance? = nil, flash: ExifFlash? = nil,
        exposureProgram: ExposureProgram? = nil, exposureMode: ExposureMode? = nil,
        pixelWidth: Int? = nil, pixelHeight: Int? = nil, colorSpace: ColorSpace? = .sRGB
    ) {
        self.make = make
        self.model = model
        self.software = software
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
        self.timeZoneOffset = timeZoneOffset
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.isoSpeed = isoSpeed
        self.focalLength = focalLength
        self.focalLengthIn35mmFilm = focalLengthIn35mmFilm
        self.whiteBalance = whiteBalance
        self.flash = flash
        self.exposureProgram = exposureProgram
        self.exposureMode = exposureMode
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.colorSpace = colorSpace
    }

    /// WhiteBalance (0xA403).
    package enum WhiteBalance: UInt16, Sendable, CaseIterable {
        case auto = 0
        case manual = 1
    }

    /// ExposureProgram (0x8822).
    package enum ExposureProgram: UInt16, Sendable, CaseIterable {
        case notDefined = 0
        case manual = 1
        /// Automatic program exposure, what a phone camera does by default.
        case normal = 2
        case aperturePriority = 3
        case shutterPriority = 4
        case creative = 5
        case action = 6
        case portrait = 7
        case landscape = 8
    }

    /// ExposureMode (0xA402).
    package enum ExposureMode: UInt16, Sendable, CaseIterable {
        case auto = 0
        case manual = 1
        case autoBracket = 2
    }

    /// ColorSpace (0xA001).
    package enum ColorSpace: UInt16, Sendable, CaseIterable {
        case sRGB = 1
        /// Anything else, such as Display P3 described by an ICC profile.
        case uncalibrated = 0xFFFF
    }
}
