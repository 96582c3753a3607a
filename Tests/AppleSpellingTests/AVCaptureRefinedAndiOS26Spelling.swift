// Names Apple's Swift interface exposes beyond the refined ones, as code calls them:
// AVCapturePhotoOutput.h's NS_REFINED_FOR_SWIFT originals (`__supportedFlashModes` … , which
// NextLevel calls), and the iOS 26 additions react-native-vision-camera v5 calls
// (AVCaptureVideoDataOutput.h's asset-writer recommendations and preservesDynamicHDRMetadata,
// AVCapturePhotoOutput.h's camera sensor orientation compensation).
import AVFoundation
import CoreMedia
import Foundation
import Testing

/// Touches the declarations; compiled, never called.
func spellAVCaptureRefinedAndiOS26(_ photoOutput: AVCapturePhotoOutput, _ videoOutput: AVCaptureVideoDataOutput) {
    let flashModes: [NSNumber] = photoOutput.__supportedFlashModes
    let pixelFormats: [NSNumber] = photoOutput.__availablePhotoPixelFormatTypes
    let rawFormats: [NSNumber] = photoOutput.__availableRawPhotoPixelFormatTypes
    let forFile: [NSNumber] = photoOutput.__supportedPhotoPixelFormatTypes(for: .tif)
    let rawForFile: [NSNumber] = photoOutput.__supportedRawPhotoPixelFormatTypes(for: .dng)
    let previewFormats: [NSNumber] = AVCapturePhotoSettings().__availablePreviewPhotoPixelFormatTypes
    if #available(iOS 26.0, *) {
        let compensationSupported: Bool = photoOutput.isCameraSensorOrientationCompensationSupported
        if compensationSupported { photoOutput.isCameraSensorOrientationCompensationEnabled = false }
        let compensationEnabled: Bool = photoOutput.isCameraSensorOrientationCompensationEnabled
        let timeScale: CMTimeScale = videoOutput.recommendedMediaTimeScaleForAssetWriter
        let metadata: [AVMetadataItem]? = videoOutput.recommendedMovieMetadata(forVideoCodecType: .hevc, assetWriterOutputFileType: .mov)
        videoOutput.preservesDynamicHDRMetadata = true
        let preserves: Bool = videoOutput.preservesDynamicHDRMetadata
        _ = (compensationEnabled, timeScale, metadata, preserves)
    }
    _ = (flashModes, pixelFormats, rawFormats, forFile, rawForFile, previewFormats)
}

@Suite("Refined-for-Swift originals and iOS 26 capture additions spelling")
struct AVCaptureRefinedAndiOS26SpellingTests {
    @Test("NextLevel's flash check and preview format through the underscored names")
    func nextLevelCalls() {
        let output = AVCapturePhotoOutput()
        #expect(output.__supportedFlashModes.contains(NSNumber(value: AVCaptureDevice.FlashMode.off.rawValue)))
        let settings = AVCapturePhotoSettings()
        let preview = settings.__availablePreviewPhotoPixelFormatTypes.first
        #expect(preview != nil)
    }

    @Test("vision-camera v5's iOS 26 calls answer without a camera")
    func visionCameraCalls() {
        let output = AVCaptureVideoDataOutput()
        #expect(output.recommendedMediaTimeScaleForAssetWriter >= 600)
        #expect(output.recommendedMovieMetadata(forVideoCodecType: .h264, assetWriterOutputFileType: .mov) == nil)
        #expect(!output.preservesDynamicHDRMetadata)
        #expect(!AVCapturePhotoOutput().isCameraSensorOrientationCompensationSupported)
    }
}
