// AVCapturePhotoOutput.h's photo pipeline (codecs, file types, raw, thumbnails, previews,
// customized files), spelled as iOS code spells it. Named apart from a whole-header file
// so the two can be merged.
import AVFoundation
import CoreVideo
import Foundation
import Testing

final class SpellingCustomizer: NSObject, AVCapturePhotoFileDataRepresentationCustomizer {
    func replacementMetadata(for photo: AVCapturePhoto) -> [String: Any]? { photo.metadata }
    func replacementEmbeddedThumbnailPixelBuffer(
        withPhotoFormat replacementEmbeddedThumbnailPhotoFormatOut: AutoreleasingUnsafeMutablePointer<NSDictionary?>,
        for photo: AVCapturePhoto
    ) -> Unmanaged<CVPixelBuffer>? {
        replacementEmbeddedThumbnailPhotoFormatOut.pointee = nil
        return nil
    }
}

/// Touches the pipeline's declarations; compiled, never called.
func spellAVCapturePhotoPipeline(_ output: AVCapturePhotoOutput, photo: AVCapturePhoto) {
    let codecs: [AVVideoCodecType] = output.availablePhotoCodecTypes
    let fileTypes: [AVFileType] = output.availablePhotoFileTypes
    let forFile: [AVVideoCodecType] = output.supportedPhotoCodecTypes(for: .heic)
    let pixelForFile: [OSType] = output.supportedPhotoPixelFormatTypes(for: .tif)
    let raws: [OSType] = output.availableRawPhotoPixelFormatTypes
    let rawFiles: [AVFileType] = output.availableRawPhotoFileTypes
    let rawForFile: [OSType] = output.supportedRawPhotoPixelFormatTypes(for: .dng)
    let bayer: Bool = AVCapturePhotoOutput.isBayerRAWPixelFormat(kCVPixelFormatType_14Bayer_RGGB)
    let proRAW: Bool = AVCapturePhotoOutput.isAppleProRAWPixelFormat(kCVPixelFormatType_14Bayer_RGGB)
    _ = (codecs, fileTypes, forFile, pixelForFile, raws, rawFiles, rawForFile, bayer, proRAW)

    let heic = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
    let raw = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB)
    let rawPlus = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
    let typed = AVCapturePhotoSettings(
        rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB, rawFileType: .dng, processedFormat: [AVVideoCodecKey: AVVideoCodecType.hevc],
        processedFileType: .heic)
    let processedFileType: AVFileType? = heic.processedFileType
    let rawFileType: AVFileType? = raw.rawFileType
    let rawType: OSType = rawPlus.rawPhotoPixelFormatType
    heic.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.hevc, AVVideoWidthKey: 320, AVVideoHeightKey: 240]
    heic.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
    let thumbnailCodecs: [AVVideoCodecType] = heic.availableEmbeddedThumbnailPhotoCodecTypes
    let previewFormats: [OSType] = heic.availablePreviewPhotoPixelFormatTypes
    _ = (typed, processedFileType, rawFileType, rawType, thumbnailCodecs, previewFormats)

    let isRaw: Bool = photo.isRawPhoto
    let preview: CVPixelBuffer? = photo.previewPixelBuffer
    let thumbnailFormat: [String: Any]? = photo.embeddedThumbnailPhotoFormat
    let customized: Data? = photo.fileDataRepresentation(with: SpellingCustomizer())
    let resolved = photo.resolvedSettings
    let sizes: (CMVideoDimensions, CMVideoDimensions, CMVideoDimensions) = (
        resolved.rawPhotoDimensions, resolved.embeddedThumbnailDimensions, resolved.previewDimensions)
    _ = (isRaw, preview, thumbnailFormat, customized, sizes)
}

@Suite("AVCapturePhotoOutput pipeline spelling")
struct AVCapturePhotoOutputPipelineSpellingTests {
    @Test func heicSettingsImplyHEIC() {
        #expect(AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc]).processedFileType == .heic)
        #expect(AVCapturePhotoOutput().availablePhotoCodecTypes.contains(.hevc))
    }
}
