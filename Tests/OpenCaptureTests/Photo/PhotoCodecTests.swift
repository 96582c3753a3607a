import Foundation
import Testing

@testable import OpenCapture

/// HEVC photos in HEIC files and the codec and file-type lists, at CIF size.
@Suite("Photo codecs and file types", .serialized)
struct PhotoCodecTests {
    static let small = CMVideoDimensions(width: 352, height: 288)

    static func settings(_ format: [String: Any]?) -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings(format: format)
        settings.maxPhotoDimensions = small
        return settings
    }

    @Test("an HEVC photo is a HEIC file heif-info and heif-convert read, its EXIF read by exiftool")
    func heicPhoto() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let settings = Self.settings([AVVideoCodecKey: AVVideoCodecType.hevc])
        #expect(settings.processedFileType == .heic)
        let (photo, recorder) = try rig.take(settings)
        #expect(recorder.error.withLock { $0 } == nil)
        let data = try #require(photo?.fileDataRepresentation())
        #expect(data.count > 1000)
        #expect(String(decoding: data[4..<12], as: UTF8.self) == "ftypheic")
        let url = temporaryFile("heic")
        defer { try? FileManager.default.removeItem(at: url) }
        try data.write(to: url)
        let info = try #require(runTool("/usr/bin/heif-info", [url.path]))
        #expect(info.contains("image: 352x288"))
        #expect(info.contains("primary"))
        let tags = exiftoolTags(url, ["-n"])
        #expect(tags["Make"] as? String == "OpenCapture")
        #expect((tags["ISO"] as? Int ?? 0) >= 34)
        #expect((tags["ExposureTime"] as? Double ?? 0) > 0)
        #expect(tags["ExifImageWidth"] as? Int == 352)
        // Decoded by libheif (and libde265): the chart's white patch is bright and neutral,
        // its red patch red (the colour of the BGRA test's patches, see PhotoOutputTests).
        let y4m = temporaryFile("y4m")
        defer { try? FileManager.default.removeItem(at: y4m) }
        #expect(runTool("/usr/bin/heif-convert", [url.path, y4m.path]) != nil)
        let picture = try #require(Y4MPicture(try Data(contentsOf: y4m)))
        let white = picture.sample(x: 0.1, y: 0.1), red = picture.sample(x: 0.9, y: 0.1)
        #expect(white.y > 150 && abs(white.cb - 128) < 12 && abs(white.cr - 128) < 12)
        #expect(red.cr > 128 + 30)
    }

    @Test("the codec and file-type lists, and the file type each format implies")
    func lists() throws {
        let output = AVCapturePhotoOutput()
        #expect(output.availablePhotoCodecTypes == [.hevc, .jpeg])
        #expect(output.availablePhotoFileTypes == [.heic, .jpg])
        #expect(output.supportedPhotoCodecTypes(for: .heic) == [.hevc])
        #expect(output.supportedPhotoCodecTypes(for: .jpg) == [.jpeg])
        #expect(output.supportedPhotoCodecTypes(for: .mov).isEmpty)
        #expect(output.supportedPhotoPixelFormatTypes(for: .jpg).isEmpty)
        #expect(AVCapturePhotoSettings().processedFileType == .jpg)
        #expect(AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg]).processedFileType == .jpg)
        #expect(AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]).processedFileType == nil)
    }

    @Test("format dictionaries follow Apple's rules; AVVideoQualityKey sets the compression")
    func formatRules() throws {
        let bgra = kCVPixelFormatType_32BGRA
        let bad: [[String: Any]] = [
            [kCVPixelBufferPixelFormatTypeKey as String: bgra, AVVideoCodecKey: AVVideoCodecType.jpeg],
            [AVVideoCodecKey: AVVideoCodecType.hevc, "Width": 100],
            [AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoCompressionPropertiesKey: [AVVideoAverageBitRateKey: 1000]],
            [AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoCompressionPropertiesKey: [AVVideoQualityKey: 1.5]],
            ["Width": 100],
        ]
        for format in bad {
            let thrown = #expect(throws: AVCaptureException.self) { _ = try AVCapturePhotoSettings(checkedFormat: format) }
            #expect(thrown?.name == .invalidArgument)
            #expect(thrown?.reason.hasPrefix("*** +[AVCapturePhotoSettings photoSettingsWithFormat:]") == true)
        }
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let h264 = Self.settings([AVVideoCodecKey: AVVideoCodecType.h264])
        let refused = #expect(throws: AVCaptureException.self) { try rig.photoOutput.capturePhotoChecked(with: h264, delegate: PhotoRecorder()) }
        #expect(refused?.reason.contains("availablePhotoCodecTypes") == true)
        func size(_ quality: Double) throws -> Int {
            let format: [String: Any] = [AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoCompressionPropertiesKey: [AVVideoQualityKey: quality]]
            let (photo, _) = try rig.take(Self.settings(format))
            return try #require(photo?.fileDataRepresentation()).count
        }
        let low = try size(0.2), high = try size(0.95)
        #expect(low * 2 < high, "quality 0.2 gives \(low) bytes, 0.95 \(high)")
    }
}

@Suite("Photo format exceptions end the process")
struct PhotoFormatExitTests {
    @Test func pixelFormatWithCodec() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVCapturePhotoSettings(format: [
                kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA, AVVideoCodecKey: AVVideoCodecType.jpeg,
            ])
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("'NSInvalidArgumentException', reason: '*** +[AVCapturePhotoSettings photoSettingsWithFormat:] kCVPixelBufferPixelFormatTypeKey is the only supported key"))
    }
}
