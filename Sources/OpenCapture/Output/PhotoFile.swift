import Foundation
import ImageOps
import MediaIO
import SimulatedCamera

/// Turns a still into what `AVCapturePhoto` hands out: JPEG or HEIC bytes with EXIF and
/// the Apple-shaped metadata dictionary ("Orientation", "{Exif}", "{TIFF}").
struct PhotoFile {
    let exif: ExifMetadata
    let fileData: Data?
    let error: AVError?

    init(still: StillCapture, plan: PhotoPlan, settings: AVCapturePhotoSettings) {
        let device = plan.device
        let metadata = still.metadata
        let rotation = Rotation(rawValue: Int(plan.connection.videoRotationAngle)) ?? .none
        var exif = ExifMetadata(
            make: device.manufacturer, model: device.modelID, orientation: ExifOrientation(displayRotation: rotation, mirrored: plan.connection.isVideoMirrored),
            dateTimeOriginal: Date(), exposureTime: metadata.exposureDuration, fNumber: Double(device.lensAperture),
            isoSpeed: Int(metadata.iso.rounded()), whiteBalance: metadata.whiteBalanceState == .locked ? .manual : .auto,
            flash: device.hasFlash ? ExifFlash(fired: still.flashFired, mode: Self.flashMode(settings.flashMode)) : .noFlashFunction,
            exposureProgram: .normal, exposureMode: .auto, pixelWidth: still.buffer.width, pixelHeight: still.buffer.height)
        if let camera = device.backend as? SimulatedCamera {
            let format = device.activeFormat.spec
            exif.focalLength = (camera.model.optics(for: format).focalLength * 100).rounded() / 100
            exif.focalLengthIn35mmFilm = Int((36 / 2 / tan(Double(format.fieldOfView) * .pi / 360)).rounded())
        }
        self.exif = exif
        guard let codec = plan.codec else {
            fileData = nil
            error = nil
            return
        }
        do {
            fileData = try Self.encode(still.buffer, codec: codec, settings: settings, exif: exif)
            error = nil
        } catch {
            fileData = nil
            self.error = AVError(.unknown, "The photo could not be encoded: \(error)")
        }
    }

    /// `buffer` compressed with `codec`: at the quality of the settings' `AVVideoQualityKey`
    /// if given, else one that follows the quality prioritization; HEVC also spends more
    /// encoder effort for more quality.
    static func encode(_ buffer: CVPixelBuffer, codec: AVVideoCodecType, settings: AVCapturePhotoSettings, exif: ExifMetadata?) throws -> Data {
        let priority = settings.photoQualityPrioritization
        let quality = settings.compressionQuality.map { Int(($0 * 100).rounded()) } ?? (priority == .speed ? 80 : 92)
        guard codec == .hevc else { return try JPEGEncoder.encode(buffer, quality: quality, exif: exif) }
        let effort: HEIFEncoder.Effort =
            switch priority {
            case .speed: .fastest
            case .balanced: .fast
            case .quality: .thorough
            }
        return try HEIFEncoder.encode(buffer, quality: quality, exif: exif, effort: effort)
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
        if let date = exif.dateTimeOriginal {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
            exifDictionary["DateTimeOriginal"] = formatter.string(from: date)
        }
        let tiff: [String: Any] = [
            "Make": exif.make ?? "", "Model": exif.model ?? "", "Software": exif.software ?? "",
            "Orientation": Int(exif.orientation.rawValue),
        ]
        return ["Orientation": Int(exif.orientation.rawValue), "{Exif}": exifDictionary, "{TIFF}": tiff]
    }
}
