import Foundation

extension ExifMetadata {
    /// Keys of the dictionary form, as Image I/O names them (`kCGImagePropertyExifDictionary`
    /// and friends), so `AVCapturePhoto.metadata` reads the same as on Apple platforms.
    package enum DictionaryKey {
        package static let exif = "{Exif}"
        package static let tiff = "{TIFF}"
        package static let orientation = "Orientation"
        package static let gps = "{GPS}"
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
        exif["UserComment"] = userComment
        exif["LensMake"] = lensMake
        exif["LensModel"] = lensModel
        tiff["ImageDescription"] = imageDescription
        tiff["Artist"] = artist
        tiff["Copyright"] = copyright
        var dictionary: [String: Any] = [
            DictionaryKey.orientation: Int(orientation.rawValue),
            DictionaryKey.exif: exif,
            DictionaryKey.tiff: tiff,
        ]
        dictionary[DictionaryKey.gps] = gps?.dictionary
        return dictionary
    }

    /// Reads the dictionary form back (what `dictionary` makes, or an app's edit of it, as
    /// passed to `replacementMetadata(for:)`): the fields this type knows; other keys are
    /// ignored. A dictionary without "{TIFF}" leaves make, model and software empty.
    package init(dictionary: [String: Any]) {
        func number(_ value: Any?) -> Double? {
            (value as? Double) ?? (value as? Float).map(Double.init) ?? (value as? Int).map(Double.init)
                ?? (value as? NSNumber)?.doubleValue
        }
        func integer(_ value: Any?) -> Int? { number(value).flatMap { Int(exactly: $0.rounded()) } }
        func enumerated<T: RawRepresentable<UInt16>>(_ value: Any?) -> T? {
            integer(value).flatMap { UInt16(exactly: $0) }.flatMap(T.init(rawValue:))
        }
        let exif = dictionary[DictionaryKey.exif] as? [String: Any] ?? [:]
        let tiff = dictionary[DictionaryKey.tiff] as? [String: Any] ?? [:]
        self.init(software: tiff["Software"] as? String, colorSpace: enumerated(exif["ColorSpace"]))
        make = tiff["Make"] as? String
        model = tiff["Model"] as? String
        orientation = enumerated(dictionary[DictionaryKey.orientation] ?? tiff["Orientation"]) ?? .up
        exposureTime = number(exif["ExposureTime"])
        fNumber = number(exif["FNumber"])
        focalLength = number(exif["FocalLength"])
        isoSpeed = integer((exif["ISOSpeedRatings"] as? [Any])?.first ?? exif["ISOSpeedRatings"])
        focalLengthIn35mmFilm = integer(exif["FocalLenIn35mmFilm"])
        whiteBalance = enumerated(exif["WhiteBalance"])
        flash = integer(exif["Flash"]).flatMap { UInt16(exactly: $0) }.map(ExifFlash.init(rawValue:))
        exposureProgram = enumerated(exif["ExposureProgram"])
        exposureMode = enumerated(exif["ExposureMode"])
        pixelWidth = integer(exif["PixelXDimension"])
        pixelHeight = integer(exif["PixelYDimension"])
        userComment = exif["UserComment"] as? String
        lensMake = exif["LensMake"] as? String
        lensModel = exif["LensModel"] as? String
        imageDescription = tiff["ImageDescription"] as? String
        artist = tiff["Artist"] as? String
        copyright = tiff["Copyright"] as? String
        gps = (dictionary[DictionaryKey.gps] as? [String: Any]).flatMap(ExifGPS.init(dictionary:))
        if let stamp = (exif["DateTimeOriginal"] ?? tiff["DateTime"]) as? String {
            timeZoneOffset = ((exif["OffsetTimeOriginal"] ?? exif["OffsetTime"]) as? String).flatMap(ExifDateTime.offset)
            dateTimeOriginal = ExifDateTime.date(stamp, offset: timeZoneOffset ?? TimeZone.current.secondsFromGMT())
        }
    }
}
