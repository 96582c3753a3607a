import Foundation
import ImageOps
import MediaIO

/// Turns a still into what `AVCapturePhoto` hands out: JPEG or HEIC bytes with EXIF and
/// the Apple-shaped metadata dictionary ("Orientation", "{Exif}", "{TIFF}").
struct PhotoFile {
    let exif: ExifMetadata
    let fileData: Data?
    /// What the file was made from, for `fileDataRepresentation(with:)`.
    let source: PhotoSource?
    let error: AVError?

    /// `quality` is the prioritization the capture got (fast capture prioritization may have
    /// lowered the settings'); `contentIdentifier` pairs a Live Photo's still with its movie.
    init(
        still: StillCapture, plan: PhotoPlan, settings: AVCapturePhotoSettings, quality: AVCapturePhotoOutput.QualityPrioritization? = nil,
        contentIdentifier: String? = nil
    ) {
        let device = plan.device
        let metadata = still.metadata
        let rotation = Rotation(rawValue: Int(plan.connection.videoRotationAngle)) ?? .none
        var exif = ExifMetadata(
            make: device.manufacturer, model: device.modelID, orientation: ExifOrientation(displayRotation: rotation, mirrored: plan.connection.isVideoMirrored),
            dateTimeOriginal: Date(), exposureTime: metadata.exposureDuration, fNumber: Double(device.lensAperture),
            isoSpeed: Int(metadata.iso.rounded()), whiteBalance: metadata.whiteBalanceState == .locked ? .manual : .auto,
            flash: device.hasFlash ? ExifFlash(fired: still.flashFired, mode: Self.flashMode(settings.flashMode)) : .noFlashFunction,
            exposureProgram: .normal, exposureMode: .auto, pixelWidth: still.buffer.width, pixelHeight: still.buffer.height)
        exif.contentIdentifier = contentIdentifier
        if let lens = device.backend as? any LensDescribing {
            let format = device.activeFormat.spec
            exif.focalLength = (lens.focalLength(for: format) * 100).rounded() / 100
            exif.focalLengthIn35mmFilm = Int((36 / 2 / tan(Double(format.fieldOfView) * .pi / 360)).rounded())
        }
        // The app's metadata replaces the base values it names (AVCapturePhotoSettings.metadata).
        if !settings.metadata.isEmpty {
            exif = exif.applying(settings.metadata)
            exif.pixelWidth = still.buffer.width
            exif.pixelHeight = still.buffer.height
        }
        self.exif = exif
        guard let codec = plan.codec else {
            fileData = nil
            source = nil
            error = nil
            return
        }
        let thumbnail = plan.thumbnail.flatMap { PhotoDerivatives.scaled(still.buffer, to: $0.size, format: still.buffer.format) }
        let priority = quality ?? settings.photoQualityPrioritization
        let cameraJPEG = Self.passesThrough(still, codec: codec, plan: plan, settings: settings) ? still.deviceJPEG : nil
        let source = PhotoSource(
            buffer: still.buffer, codec: codec, settings: settings, exif: exif, thumbnail: thumbnail, thumbnailCodec: plan.thumbnail?.codec,
            quality: priority, deviceJPEG: cameraJPEG)
        do {
            fileData = try cameraJPEG.map { try Self.inserting(exif, thumbnail: thumbnail, into: $0) }
                ?? Self.encode(still.buffer, codec: codec, settings: settings, exif: exif, thumbnail: thumbnail, priority: priority)
            self.source = source
            error = nil
        } catch {
            fileData = nil
            self.source = nil
            self.error = AVError(.unknown, "The photo could not be encoded: \(error)")
        }
    }

    /// `buffer` compressed with `codec`: at the quality of the settings' `AVVideoQualityKey`
    /// if given, else one that follows the quality prioritization; HEVC also spends more
    /// encoder effort for `.quality`.
    /// A thumbnail is stored in EXIF's IFD1 for JPEG (so only with `exif`), as a thumbnail
    /// item for HEIC.
    static func encode(
        _ buffer: CVPixelBuffer, codec: AVVideoCodecType, settings: AVCapturePhotoSettings, exif: ExifMetadata?, thumbnail: CVPixelBuffer?,
        priority: AVCapturePhotoOutput.QualityPrioritization
    ) throws -> Data {
        let quality = settings.compressionQuality.map { Int(($0 * 100).rounded()) } ?? (priority == .speed ? 80 : 92)
        guard codec == .hevc else { return try JPEGEncoder.encode(buffer, quality: quality, exif: exif, thumbnail: exif == nil ? nil : thumbnail) }
        // x265 in software: a 12 MP photo takes about 5 s at "ultrafast" and 15 s at "fast"
        // on two busy cores (heif-enc the same), so only .quality pays for "fast".
        let effort: HEIFEncoder.Effort = priority == .quality ? .fast : .fastest
        return try HEIFEncoder.encode(buffer, quality: quality, exif: exif, thumbnail: thumbnail, effort: effort)
    }

    /// Whether the photo is the JPEG the camera sent (`StillCapture.deviceJPEG`) as it is:
    /// a JPEG photo the size of the still, which nothing rotates, mirrors, crops or scales and
    /// for which the app named no compression quality of its own. Otherwise it is encoded.
    static func passesThrough(_ still: StillCapture, codec: AVVideoCodecType, plan: PhotoPlan, settings: AVCapturePhotoSettings) -> Bool {
        guard still.deviceJPEG != nil, codec == .jpeg, settings.compressionQuality == nil else { return false }
        let connection = plan.connection
        return connection.videoRotationAngle == 0 && !connection.isVideoMirrored && plan.scaleAndCrop == 1
            && still.buffer.width == plan.width && still.buffer.height == plan.height
    }

    /// `jpeg` (the camera's own) with `exif` inserted after SOI, and `thumbnail` in its IFD1
    /// as `JPEGEncoder.encode` stores one; the compressed data is left byte for byte. A Motion
    /// JPEG frame sent without Huffman tables gets the standard ones, so the file stands alone.
    static func inserting(_ exif: ExifMetadata?, thumbnail: CVPixelBuffer?, into cameraJPEG: [UInt8]) throws -> Data {
        let jpeg = try JPEGSegments.insertingStandardHuffmanTables(into: cameraJPEG)
        guard let exif else { return Data(jpeg) }
        let thumbnailJPEG = try thumbnail.map { [UInt8](try JPEGEncoder.encode($0, quality: 75, exif: nil)) }
        let tiff = exif.tiffBytes(thumbnailJPEG: thumbnailJPEG)
        return try jpeg.withUnsafeBytes { try JPEGSegments.inserting(exifTIFF: tiff, into: $0) }
    }

    /// The raw photo as a DNG: the still's mosaic with its colour description and EXIF.
    func dng(_ raw: RawStill?) throws -> Data {
        guard let raw else { throw AVError(.unknown, "The camera delivered no raw mosaic") }
        let mosaic = raw.mosaic
        let description = DNGWriter.Description(
            width: mosaic.width, height: mosaic.height, pattern: mosaic.pattern, blackLevel: mosaic.blackLevel,
            whiteLevel: mosaic.whiteLevel, colorMatrix1: raw.colorMatrix1, colorMatrix2: raw.colorMatrix2,
            illuminant1: Self.lightSource(kelvin: raw.temperature1), illuminant2: Self.lightSource(kelvin: raw.temperature2),
            asShotNeutral: raw.asShotNeutral, exif: exif)
        do {
            return try mosaic.withSamples { try DNGWriter.dng($0, description) }
        } catch {
            throw AVError(.unknown, "The raw photo could not be written: \(error)")
        }
    }

    /// The EXIF LightSource code of the standard illuminant nearest `kelvin` (in reciprocal
    /// temperature), for DNG's CalibrationIlluminant tags.
    static func lightSource(kelvin: Double) -> UInt16 {
        let illuminants: [(kelvin: Double, code: UInt16)] = [(2856, 17), (4874, 18), (5003, 23), (5503, 20), (6504, 21), (6774, 19), (7504, 22)]
        return illuminants.min { abs(1 / $0.kelvin - 1 / kelvin) < abs(1 / $1.kelvin - 1 / kelvin) }!.code
    }

    static func flashMode(_ mode: AVCaptureDevice.FlashMode) -> ExifFlash.Mode {
        switch mode {
        case .off: .off
        case .on: .on
        case .auto: .auto
        }
    }

    /// The metadata dictionary, shaped like `AVCapturePhoto.metadata` on iOS.
    var metadata: [String: Any] {
        var exifDictionary: [String: Any] = [:]
        exifDictionary["ExposureTime"] = exif.exposureTime
        exifDictionary["FNumber"] = exif.fNumber
        exifDictionary["ISOSpeedRatings"] = exif.isoSpeed.map { [$0] }
        exifDictionary["FocalLength"] = exif.focalLength
        exifDictionary["FocalLenIn35mmFilm"] = exif.focalLengthIn35mmFilm
        exifDictionary["WhiteBalance"] = exif.whiteBalance.map { Int($0.rawValue) }
        exifDictionary["Flash"] = exif.flash.map { Int($0.rawValue) }
        exifDictionary["PixelXDimension"] = exif.pixelWidth
        exifDictionary["PixelYDimension"] = exif.pixelHeight
        exifDictionary["ExposureProgram"] = exif.exposureProgram.map { Int($0.rawValue) }
        exifDictionary["ColorSpace"] = exif.colorSpace.map { Int($0.rawValue) }
        exifDictionary["ExposureMode"] = exif.exposureMode.map { Int($0.rawValue) }
        exifDictionary["UserComment"] = exif.userComment
        exifDictionary["LensMake"] = exif.lensMake
        exifDictionary["LensModel"] = exif.lensModel
        if let date = exif.dateTimeOriginal {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
            exifDictionary["DateTimeOriginal"] = formatter.string(from: date)
        }
        var tiff: [String: Any] = [
            "Make": exif.make ?? "", "Model": exif.model ?? "", "Software": exif.software ?? "",
            "Orientation": Int(exif.orientation.rawValue),
        ]
        tiff["ImageDescription"] = exif.imageDescription
        tiff["Artist"] = exif.artist
        tiff["Copyright"] = exif.copyright
        var metadata: [String: Any] = ["Orientation": Int(exif.orientation.rawValue), "{Exif}": exifDictionary, "{TIFF}": tiff]
        if let gps = exif.gps { metadata["{GPS}"] = gps.dictionary }
        // Apple's maker note tag 17 is the Live Photo content identifier.
        if let identifier = exif.contentIdentifier { metadata["{MakerApple}"] = ["17": identifier] }
        return metadata
    }
}

/// A compressed photo's pixels and what its file was made with, kept by `AVCapturePhoto`
/// so `fileDataRepresentation(with:)` can make the file again with replacements.
struct PhotoSource: @unchecked Sendable {
    let buffer: CVPixelBuffer
    let codec: AVVideoCodecType
    let settings: AVCapturePhotoSettings
    let exif: ExifMetadata
    let thumbnail: CVPixelBuffer?
    let thumbnailCodec: AVVideoCodecType?
    /// The quality prioritization the photo was made with.
    let quality: AVCapturePhotoOutput.QualityPrioritization
    /// The camera's own JPEG when the photo is it with EXIF inserted (`PhotoFile.passesThrough`):
    /// a file made again keeps it too, so only the metadata and thumbnail change.
    var deviceJPEG: [UInt8]? = nil

    /// The file with `metadata` (nil: none) and `thumbnail` (nil: none), the thumbnail
    /// scaled to `thumbnailFormat`'s width and height when it names them. Throws when the
    /// format names a codec the settings do not offer for thumbnails.
    func file(metadata: [String: Any]?, thumbnail: CVPixelBuffer?, thumbnailFormat: [String: Any]) throws -> Data {
        var exif = metadata.map(ExifMetadata.init(dictionary:))
        // The pixels decide the sizes, whatever the dictionary said.
        exif?.pixelWidth = buffer.width
        exif?.pixelHeight = buffer.height
        var embedded = thumbnail
        if let thumbnail {
            if let codec = AVCapturePhotoSettings.codec(in: thumbnailFormat), !settings.availableEmbeddedThumbnailPhotoCodecTypes.contains(codec) {
                throw AVError(.unknown, "thumbnail codec \(codec.rawValue) is not in availableEmbeddedThumbnailPhotoCodecTypes")
            }
            if let requested = PhotoDerivatives.requestedSize(thumbnailFormat, widthKey: AVVideoWidthKey, heightKey: AVVideoHeightKey) {
                let photo = CMVideoDimensions(width: Int32(thumbnail.width), height: Int32(thumbnail.height))
                let size = PhotoDerivatives.size(photo: photo, requested: requested, defaultLongSide: PhotoDerivatives.thumbnailLongSide)
                embedded = PhotoDerivatives.scaled(thumbnail, to: size, format: thumbnail.format)
            }
        }
        if let deviceJPEG { return try PhotoFile.inserting(exif, thumbnail: embedded, into: deviceJPEG) }
        return try PhotoFile.encode(buffer, codec: codec, settings: settings, exif: exif, thumbnail: embedded, priority: quality)
    }
}
