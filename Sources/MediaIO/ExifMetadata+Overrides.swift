import Foundation

extension ExifMetadata {
    /// This metadata with the fields `overrides` names (Image I/O's dictionary form, as
    /// `AVCapturePhotoSettings.metadata` has it) replaced by its values; fields it does not
    /// name stay. "{GPS}" replaces the location as a whole. Keys this type does not know
    /// are ignored.
    package func applying(_ overrides: [String: Any]) -> ExifMetadata {
        let parsed = ExifMetadata(dictionary: overrides)
        let exif = overrides[DictionaryKey.exif] as? [String: Any] ?? [:]
        let tiff = overrides[DictionaryKey.tiff] as? [String: Any] ?? [:]
        var result = self
        // Each field with the dictionary keys that set it.
        let fields: [(Bool, (inout ExifMetadata) -> Void)] = [
            (overrides[DictionaryKey.orientation] != nil || tiff["Orientation"] != nil, { $0.orientation = parsed.orientation }),
            (tiff["Make"] != nil, { $0.make = parsed.make }),
            (tiff["Model"] != nil, { $0.model = parsed.model }),
            (tiff["Software"] != nil, { $0.software = parsed.software }),
            (tiff["ImageDescription"] != nil, { $0.imageDescription = parsed.imageDescription }),
            (tiff["Artist"] != nil, { $0.artist = parsed.artist }),
            (tiff["Copyright"] != nil, { $0.copyright = parsed.copyright }),
            (exif["DateTimeOriginal"] != nil || tiff["DateTime"] != nil, {
                $0.dateTimeOriginal = parsed.dateTimeOriginal
                $0.timeZoneOffset = parsed.timeZoneOffset
            }),
            (exif["ExposureTime"] != nil, { $0.exposureTime = parsed.exposureTime }),
            (exif["FNumber"] != nil, { $0.fNumber = parsed.fNumber }),
            (exif["ISOSpeedRatings"] != nil, { $0.isoSpeed = parsed.isoSpeed }),
            (exif["FocalLength"] != nil, { $0.focalLength = parsed.focalLength }),
            (exif["FocalLenIn35mmFilm"] != nil, { $0.focalLengthIn35mmFilm = parsed.focalLengthIn35mmFilm }),
            (exif["WhiteBalance"] != nil, { $0.whiteBalance = parsed.whiteBalance }),
            (exif["Flash"] != nil, { $0.flash = parsed.flash }),
            (exif["ExposureProgram"] != nil, { $0.exposureProgram = parsed.exposureProgram }),
            (exif["ExposureMode"] != nil, { $0.exposureMode = parsed.exposureMode }),
            (exif["ColorSpace"] != nil, { $0.colorSpace = parsed.colorSpace }),
            (exif["UserComment"] != nil, { $0.userComment = parsed.userComment }),
            (exif["LensMake"] != nil, { $0.lensMake = parsed.lensMake }),
            (exif["LensModel"] != nil, { $0.lensModel = parsed.lensModel }),
            (overrides[DictionaryKey.gps] != nil, { $0.gps = parsed.gps }),
        ]
        for (named, apply) in fields where named { apply(&result) }
        return result
    }
}
