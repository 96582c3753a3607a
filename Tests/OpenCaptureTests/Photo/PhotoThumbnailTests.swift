import Foundation
import Testing

@testable import OpenCapture

/// Replaces the metadata's model and the thumbnail, or strips both.
final class Customizer: NSObject, AVCapturePhotoFileDataRepresentationCustomizer {
    let strip: Bool
    let thumbnail: CVPixelBuffer

    init(strip: Bool) {
        self.strip = strip
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_32BGRA, nil, &buffer)
        thumbnail = buffer!
    }

    func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]? {
        guard !strip else { return nil }
        var metadata = photo.metadata
        var tiff = metadata["{TIFF}"] as? [String: Any] ?? [:]
        tiff["Model"] = "Replaced Model"
        metadata["{TIFF}"] = tiff
        return metadata
    }

    func replacementEmbeddedThumbnailPixelBuffer(
        withPhotoFormat replacementEmbeddedThumbnailPhotoFormatOut: AutoreleasingUnsafeMutablePointer<NSDictionary?>,
        for photo: AVCapturePhoto
    ) -> Unmanaged<CVPixelBuffer>? {
        guard !strip else { return nil }
        replacementEmbeddedThumbnailPhotoFormatOut.pointee = NSDictionary(dictionary: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        return Unmanaged.passUnretained(thumbnail)
    }
}

/// Implements nothing: everything is kept.
final class KeepingCustomizer: NSObject, AVCapturePhotoFileDataRepresentationCustomizer {}

/// Embedded thumbnails, previews and customized files, at CIF size.
@Suite("Photo thumbnails, previews and customized files", .serialized)
struct PhotoThumbnailTests {
    @Test("a JPEG's thumbnail sits in EXIF's IFD1, where exiftool finds it; a preview comes scaled, in its format")
    func jpegThumbnailAndPreview() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let settings = PhotoCodecTests.settings(nil)
        #expect(settings.availableEmbeddedThumbnailPhotoCodecTypes == [.jpeg])
        #expect(settings.availablePreviewPhotoPixelFormatTypes.contains(kCVPixelFormatType_32BGRA))
        settings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: 160, AVVideoHeightKey: 100]
        settings.previewPhotoFormat = [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey as String: 176,
            kCVPixelBufferHeightKey as String: 144,
        ]
        let (taken, _) = try rig.take(settings)
        let photo = try #require(taken)
        // The larger requested side is the long side; the photo's 11:9 aspect is kept.
        #expect(photo.resolvedSettings.embeddedThumbnailDimensions == CMVideoDimensions(width: 160, height: 130))
        #expect(photo.embeddedThumbnailPhotoFormat?[AVVideoWidthKey] as? Int == 160)
        let preview = try #require(photo.previewPixelBuffer)
        #expect(CVPixelBufferGetWidth(preview) == 176 && CVPixelBufferGetHeight(preview) == 144)
        #expect(CVPixelBufferGetPixelFormatType(preview) == kCVPixelFormatType_32BGRA)
        #expect(photo.resolvedSettings.previewDimensions == CMVideoDimensions(width: 176, height: 144))
        let white = bgraPixel(preview, x: 0.1, y: 0.1), red = bgraPixel(preview, x: 0.9, y: 0.1)
        #expect(white.g > 150 && red.r > red.g + 60, "the preview shows the chart")

        let data = try #require(photo.fileDataRepresentation())
        let url = temporaryFile("jpg")
        defer { try? FileManager.default.removeItem(at: url) }
        try data.write(to: url)
        let tags = exiftoolTags(url, ["-n", "-ThumbnailOffset", "-ThumbnailLength", "-Model"])
        let offset = try #require(tags["ThumbnailOffset"] as? Int), length = try #require(tags["ThumbnailLength"] as? Int)
        let thumbnail = data.subdata(in: offset..<offset + length)
        #expect(jpegSize(thumbnail).map { [$0.width, $0.height] } == [160, 130])
        #expect(tags["Model"] as? String == (photo.metadata["{TIFF}"] as? [String: Any])?["Model"] as? String)
    }

    @Test("fileDataRepresentation(with:) replaces or strips the metadata and the thumbnail; HEIC thumbnails are items")
    func customizedFiles() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let settings = PhotoCodecTests.settings([AVVideoCodecKey: AVVideoCodecType.hevc])
        #expect(settings.availableEmbeddedThumbnailPhotoCodecTypes == [.hevc])
        settings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.hevc]
        let (taken, _) = try rig.take(settings)
        let photo = try #require(taken)
        let url = temporaryFile("heic")
        defer { try? FileManager.default.removeItem(at: url) }
        try #require(photo.fileDataRepresentation()).write(to: url)
        let info = runTool("/usr/bin/heif-info", [url.path]) ?? ""
        #expect(info.contains("thumbnail: 320x262"), "\(info)")

        let jpegSettings = PhotoCodecTests.settings(nil)
        jpegSettings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg]
        let (jpegTaken, _) = try rig.take(jpegSettings)
        let jpeg = try #require(jpegTaken)
        let kept = try #require(jpeg.fileDataRepresentation(with: KeepingCustomizer()))
        let replaced = try #require(jpeg.fileDataRepresentation(with: Customizer(strip: false)))
        let stripped = try #require(jpeg.fileDataRepresentation(with: Customizer(strip: true)))
        let model = try #require((jpeg.metadata["{TIFF}"] as? [String: Any])?["Model"] as? String)
        #expect(kept.range(of: Data(model.utf8)) != nil)
        #expect(replaced.range(of: Data("Replaced Model".utf8)) != nil)
        #expect(stripped.range(of: Data("Exif".utf8) + Data([0, 0])) == nil, "no EXIF left")
        let replacedURL = temporaryFile("jpg")
        defer { try? FileManager.default.removeItem(at: replacedURL) }
        try replaced.write(to: replacedURL)
        let tags = exiftoolTags(replacedURL, ["-n", "-ThumbnailOffset", "-ThumbnailLength", "-Model", "-ExifImageWidth"])
        #expect(tags["Model"] as? String == "Replaced Model")
        #expect(tags["ExifImageWidth"] as? Int == 352)
        let offset = try #require(tags["ThumbnailOffset"] as? Int), length = try #require(tags["ThumbnailLength"] as? Int)
        #expect(jpegSize(replaced.subdata(in: offset..<offset + length)).map { [$0.width, $0.height] } == [64, 48])
    }

    @Test("thumbnail and preview formats are checked as Apple documents")
    func formatRules() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let widthOnly = PhotoCodecTests.settings(nil)
        widthOnly.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: 160]
        let wrongCodec = PhotoCodecTests.settings(nil)
        wrongCodec.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.hevc]
        let noPreviewFormat = PhotoCodecTests.settings(nil)
        noPreviewFormat.previewPhotoFormat = [kCVPixelBufferWidthKey as String: 100, kCVPixelBufferHeightKey as String: 100]
        for settings in [widthOnly, wrongCodec, noPreviewFormat] {
            let thrown = #expect(throws: AVCaptureException.self) { try rig.photoOutput.capturePhotoChecked(with: settings, delegate: PhotoRecorder()) }
            #expect(thrown?.name == .invalidArgument)
        }
    }
}
