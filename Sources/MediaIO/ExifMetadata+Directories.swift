import Foundation

extension ExifMetadata {
    /// The metadata as TIFF bytes (little-endian IFD0 plus Exif IFD), the payload of an APP1
    /// "Exif" segment after its "Exif\0\0" header.
    package var tiffBytes: [UInt8] { tiffBytes(thumbnailJPEG: nil) }

    /// The TIFF bytes with a JPEG thumbnail in IFD1, when given.
    package func tiffBytes(thumbnailJPEG: [UInt8]?) -> [UInt8] {
        let directories = self.directories
        return ExifWriter.tiff(ifd0: directories.ifd0, exif: directories.exif, gps: gps?.directory ?? [:], thumbnailJPEG: thumbnailJPEG)
    }

    /// Reads TIFF bytes as written by `tiffBytes` or by a camera; `nil` when they are not TIFF.
    package init?(tiff: [UInt8]) {
        guard let reader = ExifReader(tiff: tiff) else { return nil }
        self.init(ifd0: reader.ifd0, exif: reader.exif)
        gps = ExifGPS(directory: reader.gps)
    }

    /// Reads the EXIF of a JPEG file; `nil` when it has no readable APP1 "Exif" segment.
    package init?(jpeg: Data) {
        guard let payload = JPEGSegments.exifPayload(in: jpeg) else { return nil }
        self.init(tiff: payload)
    }

    /// The offset from UTC written with the dates: the one given, or the current time zone's
    /// at the moment of the shot.
    var resolvedTimeZoneOffset: Int {
        timeZoneOffset ?? TimeZone.current.secondsFromGMT(for: dateTimeOriginal ?? Date())
    }

    /// The metadata as tagged values for IFD0 and the Exif IFD, including the tags EXIF 2.32
    /// requires of a compressed file (resolution, YCbCrPositioning, versions, components).
    var directories: (ifd0: [ExifTag: ExifValue], exif: [ExifTag: ExifValue]) {
        var ifd0: [ExifTag: ExifValue] = [
            .orientation: .short([orientation.rawValue]),
            .xResolution: .rational([ExifRational(72, 1)]),
            .yResolution: .rational([ExifRational(72, 1)]),
            .resolutionUnit: .short([2]),  // inches
            .yCbCrPositioning: .short([1]),  // centred, how libjpeg subsamples chroma
        ]
        var exif: [ExifTag: ExifValue] = [
            .exifVersion: .bytes(Array("0232".utf8)),
            .flashpixVersion: .bytes(Array("0100".utf8)),
            .componentsConfiguration: .bytes([1, 2, 3, 0]),  // Y, Cb, Cr
        ]
        ifd0[.make] = make.map(ExifValue.ascii)
        ifd0[.model] = model.map(ExifValue.ascii)
        ifd0[.software] = software.map(ExifValue.ascii)
        if let dateTimeOriginal {
            let offset = resolvedTimeZoneOffset
            let stamp = ExifValue.ascii(ExifDateTime.string(dateTimeOriginal, offset: offset))
            let offsetStamp = ExifValue.ascii(ExifDateTime.offsetString(offset))
            ifd0[.dateTime] = stamp
            exif[.dateTimeOriginal] = stamp
            exif[.dateTimeDigitized] = stamp
            exif[.offsetTime] = offsetStamp
            exif[.offsetTimeOriginal] = offsetStamp
            exif[.offsetTimeDigitized] = offsetStamp
        }
        exif[.exposureTime] = exposureTime.map { .rational([ExifRational(approximating: $0)]) }
        exif[.fNumber] = fNumber.map { .rational([ExifRational(approximating: $0)]) }
        exif[.focalLength] = focalLength.map { .rational([ExifRational(approximating: $0)]) }
        exif[.isoSpeedRatings] = isoSpeed.map { .short([Self.short($0)]) }
        exif[.focalLengthIn35mmFilm] = focalLengthIn35mmFilm.map { .short([Self.short($0)]) }
        exif[.whiteBalance] = whiteBalance.map { .short([$0.rawValue]) }
        exif[.flash] = flash.map { .short([$0.rawValue]) }
        exif[.exposureProgram] = exposureProgram.map { .short([$0.rawValue]) }
        exif[.exposureMode] = exposureMode.map { .short([$0.rawValue]) }
        exif[.colorSpace] = colorSpace.map { .short([$0.rawValue]) }
        exif[.pixelXDimension] = pixelWidth.map { .long([UInt32(clamping: $0)]) }
        exif[.pixelYDimension] = pixelHeight.map { .long([UInt32(clamping: $0)]) }
        exif[.makerNote] = contentIdentifier.map { .bytes(AppleMakerNote.bytes(contentIdentifier: $0)) }
        ifd0[.imageDescription] = imageDescription.map(ExifValue.ascii)
        ifd0[.artist] = artist.map(ExifValue.ascii)
        ifd0[.copyright] = copyright.map(ExifValue.ascii)
        // UserComment: an 8-byte character code, then the text (EXIF 2.32, 4.6.5).
        exif[.userComment] = userComment.map { .bytes(Array("ASCII\0\0\0".utf8) + Array($0.utf8)) }
        exif[.lensMake] = lensMake.map(ExifValue.ascii)
        exif[.lensModel] = lensModel.map(ExifValue.ascii)
        return (ifd0, exif)
    }

    /// The metadata in two directories' tagged values; tags it does not know are ignored,
    /// and values of the wrong type or out of range read as absent.
    init(ifd0: [ExifTag: ExifValue], exif: [ExifTag: ExifValue]) {
        func integer(_ value: ExifValue?) -> Int? { value?.integers?.first }
        func number(_ value: ExifValue?) -> Double? { value?.rationals?.first.map(\.doubleValue) }
        func enumerated<T: RawRepresentable<UInt16>>(_ value: ExifValue?) -> T? {
            integer(value).flatMap { UInt16(exactly: $0) }.flatMap(T.init(rawValue:))
        }
        self.init(software: nil, colorSpace: nil)
        make = ifd0[.make]?.string
        model = ifd0[.model]?.string
        software = ifd0[.software]?.string
        orientation = enumerated(ifd0[.orientation]) ?? .up
        exposureTime = number(exif[.exposureTime])
        fNumber = number(exif[.fNumber])
        focalLength = number(exif[.focalLength])
        isoSpeed = integer(exif[.isoSpeedRatings])
        focalLengthIn35mmFilm = integer(exif[.focalLengthIn35mmFilm])
        whiteBalance = enumerated(exif[.whiteBalance])
        flash = integer(exif[.flash]).flatMap { UInt16(exactly: $0) }.map(ExifFlash.init(rawValue:))
        exposureProgram = enumerated(exif[.exposureProgram])
        exposureMode = enumerated(exif[.exposureMode])
        colorSpace = enumerated(exif[.colorSpace])
        pixelWidth = integer(exif[.pixelXDimension])
        pixelHeight = integer(exif[.pixelYDimension])
        if case .bytes(let note)? = exif[.makerNote] { contentIdentifier = AppleMakerNote.contentIdentifier(in: note) }
        imageDescription = ifd0[.imageDescription]?.string
        artist = ifd0[.artist]?.string
        copyright = ifd0[.copyright]?.string
        if case .bytes(let comment)? = exif[.userComment], comment.count >= 8 {
            userComment = String(decoding: comment.dropFirst(8).prefix { $0 != 0 }, as: UTF8.self)
        }
        lensMake = exif[.lensMake]?.string
        lensModel = exif[.lensModel]?.string
        readDate(ifd0: ifd0, exif: exif)
    }

    /// DateTimeOriginal (or TIFF DateTime) placed in time by OffsetTimeOriginal (or
    /// OffsetTime); without an offset, the local time is taken to be this machine's.
    private mutating func readDate(ifd0: [ExifTag: ExifValue], exif: [ExifTag: ExifValue]) {
        guard let stamp = exif[.dateTimeOriginal]?.string ?? ifd0[.dateTime]?.string else { return }
        timeZoneOffset = (exif[.offsetTimeOriginal]?.string ?? exif[.offsetTime]?.string).flatMap(ExifDateTime.offset)
        if let timeZoneOffset {
            dateTimeOriginal = ExifDateTime.date(stamp, offset: timeZoneOffset)
        } else if let asUTC = ExifDateTime.date(stamp, offset: 0) {
            dateTimeOriginal = asUTC - TimeInterval(TimeZone.current.secondsFromGMT(for: asUTC))
        }
    }

    private static func short(_ value: Int) -> UInt16 { UInt16(clamping: value) }
}
