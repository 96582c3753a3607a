import Foundation
import ImageIO
import MediaIO
import Testing

@testable import OpenCapture

/// A real photo's metadata read as iOS code reads it, through Image I/O's keys.
@Suite("Photo metadata through kCGImageProperty keys", .serialized)
struct PhotoImagePropertiesTests {
    @Test("orientation, exposure time, ISO, f-number, size and make/model of a rotated JPEG")
    func readThroughKeys() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let connection = try #require(rig.photoOutput.connection(with: .video))
        connection.videoRotationAngle = 90
        let settings = AVCapturePhotoSettings()
        settings.maxPhotoDimensions = CMVideoDimensions(width: 352, height: 288)
        let (photo, recorder) = try rig.take(settings)
        #expect(recorder.error.withLock { $0 } == nil)
        let metadata = try #require(photo?.metadata)

        let number = try #require(metadata[kCGImagePropertyOrientation as String] as? Int)
        let orientation = try #require(CGImagePropertyOrientation(rawValue: UInt32(number)))
        #expect(orientation == .right, "a quarter turn clockwise shows the portrait photo upright")

        let exif = try #require(metadata[kCGImagePropertyExifDictionary as String] as? [String: Any])
        let exposure = try #require(exif[kCGImagePropertyExifExposureTime as String] as? Double)
        #expect(exposure > 0 && exposure < 1)
        let iso = try #require(exif[kCGImagePropertyExifISOSpeedRatings as String] as? [Int])
        #expect(iso.count == 1 && iso[0] >= 34)
        #expect((exif[kCGImagePropertyExifFNumber as String] as? Double ?? 0) > 0)
        #expect((exif[kCGImagePropertyExifFocalLength as String] as? Double ?? 0) > 0)
        #expect(exif[kCGImagePropertyExifPixelXDimension as String] as? Int == 352)
        #expect(exif[kCGImagePropertyExifPixelYDimension as String] as? Int == 288)
        #expect(exif[kCGImagePropertyExifDateTimeOriginal as String] is String)

        let tiff = try #require(metadata[kCGImagePropertyTIFFDictionary as String] as? [String: Any])
        let device = rig.rig.device
        #expect(tiff[kCGImagePropertyTIFFMake as String] as? String == device.manufacturer)
        #expect(tiff[kCGImagePropertyTIFFModel as String] as? String == device.modelID)
        #expect(tiff[kCGImagePropertyTIFFOrientation as String] as? Int == Int(CGImagePropertyOrientation.right.rawValue))
        #expect(metadata[kCGImagePropertyGPSDictionary as String] == nil, "no location was given")
    }

    @Test("a location an app puts in the settings' metadata under the GPS keys comes back under them")
    func gpsThroughKeys() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let settings = AVCapturePhotoSettings()
        settings.maxPhotoDimensions = CMVideoDimensions(width: 352, height: 288)
        settings.metadata = [
            kCGImagePropertyGPSDictionary as String: [
                kCGImagePropertyGPSLatitude as String: 48.8584, kCGImagePropertyGPSLatitudeRef as String: "N",
                kCGImagePropertyGPSLongitude as String: 2.2945, kCGImagePropertyGPSLongitudeRef as String: "E",
                kCGImagePropertyGPSAltitude as String: 35.0,
            ]
        ]
        let (photo, _) = try rig.take(settings)
        let data = try #require(photo?.fileDataRepresentation())
        let gps = try #require(photo?.metadata[kCGImagePropertyGPSDictionary as String] as? [String: Any])
        #expect(abs((gps[kCGImagePropertyGPSLatitude as String] as? Double ?? 0) - 48.8584) < 1e-4)
        #expect(gps[kCGImagePropertyGPSLatitudeRef as String] as? String == "N")
        #expect(abs((gps[kCGImagePropertyGPSLongitude as String] as? Double ?? 0) - 2.2945) < 1e-4)
        #expect(gps[kCGImagePropertyGPSLongitudeRef as String] as? String == "E")
        #expect(data.count > 1000)
    }

    @Test("the enum's raw values are EXIF's, and the keys index the dictionaries the photo pipeline makes")
    func valuesMatchThePipeline() {
        #expect(CGImagePropertyOrientation(rawValue: 0) == nil && CGImagePropertyOrientation(rawValue: 9) == nil)
        let cases: [CGImagePropertyOrientation] = [.up, .upMirrored, .down, .downMirrored, .leftMirrored, .right, .rightMirrored, .left]
        #expect(cases.map(\.rawValue) == Array(1...8))
        for exif in ExifOrientation.allCases {
            #expect(CGImagePropertyOrientation(rawValue: UInt32(exif.rawValue)).map { "\($0)" } == "\(exif)")
        }
        #expect(kCGImagePropertyExifDictionary as String == ExifMetadata.DictionaryKey.exif)
        #expect(kCGImagePropertyTIFFDictionary as String == ExifMetadata.DictionaryKey.tiff)
        #expect(kCGImagePropertyGPSDictionary as String == ExifMetadata.DictionaryKey.gps)
        #expect(kCGImagePropertyOrientation as String == ExifMetadata.DictionaryKey.orientation)
    }
}
