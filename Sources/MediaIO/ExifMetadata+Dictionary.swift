import Foundation

extension ExifMetadata {
    /// Keys of the dictionary form, as Image I/O names them (`kCGImagePropertyExifDictionary`
    /// and friends), so `AVCapturePhoto.metadata` reads the same as on Apple platforms.
    package enum DictionaryKey {
        package static let exif = "{Exif}"
        package static let tiff = "{TIFF}"
        package static let orientation = "Orientation"
    }

    /// The metadata shaped like Apple's photo metadata: a top-level "Orientation", an
    /// "{Exif}" dictionary and a "{TIFF}" dictionary, with Image I/O's key names and value
    /// types (numbers as `Int` or `Double`, ISOSpeedRatings as `[Int]`, dates as EXIF strings,
    /// versions as digit arrays). Absent fields are left out.
    package var dictionary: [String: Any] {
        var exif: [String: Any] = [
            "ExifVersion": [2, 3, 2],
            "FlashPixVersion": [1, 0],
            "ComponentsConfiguration": [1, 2, 3, 0],
        ]
        var tiff: [String: Any] = [
            "Orientation": Int(orientation.rawValue),
            "XResolution": 72,
            "YResolution": 72,
            "ResolutionUnit": 2,
        ]
        tiff["Make"] = make
        tiff["Model"] = model
        tiff["Software"] = software
        if let dateTimeOriginal {
            let offset = resolvedTimeZoneOffset
            let stamp = ExifDateTime.string(dateTimeOriginal, offset: offset)
            let offsetStamp = ExifDateTime.offsetString(offset)
            tiff["DateTime"] = stamp
            exif["DateTimeOriginal"] = stamp
            exif["DateTimeDigitized"] = stamp
            exif["OffsetTime"] = offsetStamp
            exif["OffsetTimeOriginal"] = offsetStamp
            exif["OffsetTimeDigitized"] = offsetStamp
        }
        exif["ExposureTime"] = exposureTime
        exif["FNumber"] = fNumber
        exif["ISOSpeedRatings"] = isoSpeed.map { [$0] }
        exif["FocalLength"] = focalLength
        exif["FocalLenIn35mmFilm"] = focalLengthIn35mmFilm
        exif["WhiteBalance"] = whiteBalance.map { Int($0.rawValue) }
        exif["Flash"] = flash.map { Int($0.rawValue) }
        exif["ExposureProgram"] = exposureProgram.map { Int($0.rawValue) }
        exif["ExposureMode"] = exposureMode.map { Int($0.rawValue) }
        exif["ColorSpace"] = colorSpace.map { Int($0.rawValue) }
        exif["PixelXDimension"] = pixelWidth
        exif["PixelYDimension"] = pixelHeight
        return [
            DictionaryKey.orientation: Int(orientation.rawValue),
            DictionaryKey.exif: exif,
            DictionaryKey.tiff: tiff,
        ]
    }
}
