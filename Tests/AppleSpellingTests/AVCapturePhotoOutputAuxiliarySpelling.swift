// AVCapturePhotoOutput.h's depth, matte, fusion, calibration, constant-colour,
// metadata, CGImage and deprecated iOS 10/11 declarations (docs/parity-gaps.md §13),
// spelled as iOS code spells them. Named apart from the pipeline file so they can be merged.
import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import QuartzCore
import Testing

/// A delegate written for iOS 10: only the deprecated sample-buffer callbacks.
final class SampleBufferPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    @available(*, deprecated)
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: (any Error)?
    ) {
        guard let photoSampleBuffer else { return }
        _ = AVCapturePhotoOutput.jpegPhotoDataRepresentation(forJPEGSampleBuffer: photoSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer)
    }
    @available(*, deprecated)
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingRawPhoto rawSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: (any Error)?
    ) {
        guard let rawSampleBuffer else { return }
        _ = AVCapturePhotoOutput.dngPhotoDataRepresentation(forRawSampleBuffer: rawSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer)
    }
}

/// A customizer with every optional requirement.
final class FullCustomizer: NSObject, AVCapturePhotoFileDataRepresentationCustomizer {
    func replacementDepthData(for photo: AVCapturePhoto) -> AVDepthData? { photo.depthData }
    func replacementPortraitEffectsMatte(for photo: AVCapturePhoto) -> AVPortraitEffectsMatte? { photo.portraitEffectsMatte }
    func replacementSemanticSegmentationMatte(
        ofType semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType, for photo: AVCapturePhoto
    ) -> AVSemanticSegmentationMatte? {
        photo.semanticSegmentationMatte(for: semanticSegmentationMatteType)
    }
    func replacementAppleProRAWCompressionSettings(
        for photo: AVCapturePhoto, defaultSettings: [String: Any], maximumBitDepth: Int
    ) -> [String: Any] {
        defaultSettings
    }
}

/// Touches every declaration; compiled, never called.
@available(*, deprecated)
func spellAVCapturePhotoOutputAuxiliary(_ output: AVCapturePhotoOutput, photo: AVCapturePhoto, device: AVCaptureDevice) {
    // AVCapturePhotoOutput.
    output.isDepthDataDeliveryEnabled = output.isDepthDataDeliverySupported
    output.isPortraitEffectsMatteDeliveryEnabled = output.isPortraitEffectsMatteDeliverySupported
    output.enabledSemanticSegmentationMatteTypes = output.availableSemanticSegmentationMatteTypes
    let fusion: Bool = output.isVirtualDeviceFusionSupported
    let dualFusion: Bool = output.isDualCameraFusionSupported
    output.isVirtualDeviceConstituentPhotoDeliveryEnabled = output.isVirtualDeviceConstituentPhotoDeliverySupported
    output.isDualCameraDualPhotoDeliveryEnabled = output.isDualCameraDualPhotoDeliverySupported
    let calibration: Bool = output.isCameraCalibrationDataDeliverySupported
    let redEye: Bool = output.isAutoRedEyeReductionSupported
    let stabilization: Bool = output.isStillImageStabilizationSupported
    output.isContentAwareDistortionCorrectionEnabled = output.isContentAwareDistortionCorrectionSupported
    output.isConstantColorEnabled = output.isConstantColorSupported
    let shutter: Bool = output.isShutterSoundSuppressionSupported
    output.isFastCapturePrioritizationSupported = false
    let pixelTypes: [OSType] = output.supportedPhotoPixelFormatTypes(for: .tif)
    let rawTypes: [OSType] = output.supportedRawPhotoPixelFormatTypes(for: .dng)
    _ = (fusion, dualFusion, calibration, redEye, stabilization, shutter, pixelTypes, rawTypes)

    // AVCapturePhotoSettings.
    let settings = AVCapturePhotoSettings()
    let copied = settings.copy() as! AVCapturePhotoSettings
    settings.isAutoRedEyeReductionEnabled = true
    settings.isAutoStillImageStabilizationEnabled = true
    settings.isAutoVirtualDeviceFusionEnabled = true
    settings.isAutoDualCameraFusionEnabled = true
    settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices = [device]
    settings.isDualCameraDualPhotoDeliveryEnabled = false
    settings.isDepthDataDeliveryEnabled = output.isDepthDataDeliveryEnabled
    settings.embedsDepthDataInPhoto = true
    settings.isDepthDataFiltered = true
    settings.isCameraCalibrationDataDeliveryEnabled = false
    settings.isPortraitEffectsMatteDeliveryEnabled = output.isPortraitEffectsMatteDeliveryEnabled
    settings.embedsPortraitEffectsMatteInPhoto = true
    settings.enabledSemanticSegmentationMatteTypes = [.hair, .skin, .teeth, .glasses]
    settings.embedsSemanticSegmentationMattesInPhoto = true
    settings.metadata = ["{GPS}": ["Latitude": 48.85, "LatitudeRef": "N"]]
    let metadata: [String: Any] = settings.metadata
    settings.livePhotoMovieMetadata = [AVMutableMetadataItem()]
    settings.livePhotoMovieMetadata = nil
    let movieMetadata: [AVMetadataItem] = settings.livePhotoMovieMetadata
    let rawThumbnailCodecs: [AVVideoCodecType] = settings.availableRawEmbeddedThumbnailPhotoCodecTypes
    settings.rawEmbeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg]
    settings.isAutoContentAwareDistortionCorrectionEnabled = false
    settings.isConstantColorEnabled = false
    settings.isConstantColorFallbackPhotoDeliveryEnabled = false
    settings.isShutterSoundSuppressionEnabled = false
    _ = (copied, metadata, movieMetadata, rawThumbnailCodecs)

    // AVCaptureResolvedPhotoSettings.
    let resolved = photo.resolvedSettings
    let rawThumbnail: CMVideoDimensions = resolved.rawEmbeddedThumbnailDimensions
    let matte: CMVideoDimensions = resolved.portraitEffectsMatteDimensions
    let segmentation: CMVideoDimensions = resolved.dimensionsForSemanticSegmentationMatte(ofType: .hair)
    let resolvedFlags: [Bool] = [
        resolved.isRedEyeReductionEnabled, resolved.isStillImageStabilizationEnabled, resolved.isVirtualDeviceFusionEnabled,
        resolved.isDualCameraFusionEnabled, resolved.isContentAwareDistortionCorrectionEnabled,
    ]
    _ = (rawThumbnail, matte, segmentation, resolvedFlags)

    // AVCapturePhoto.
    let depth: AVDepthData? = photo.depthData
    let portrait: AVPortraitEffectsMatte? = photo.portraitEffectsMatte
    let hair: AVSemanticSegmentationMatte? = photo.semanticSegmentationMatte(for: .hair)
    let calibrationData: AVCameraCalibrationData? = photo.cameraCalibrationData
    let source: AVCaptureDevice.DeviceType? = photo.sourceDeviceType
    let confidence: CVPixelBuffer? = photo.constantColorConfidenceMap
    let level: Float = photo.constantColorCenterWeightedMeanConfidenceLevel
    let fallback: Bool = photo.isConstantColorFallbackPhoto
    let replaced: Data? = photo.fileDataRepresentation(
        withReplacementMetadata: photo.metadata, replacementEmbeddedThumbnailPhotoFormat: photo.embeddedThumbnailPhotoFormat,
        replacementEmbeddedThumbnailPixelBuffer: nil, replacementDepthData: photo.depthData)
    let customized: Data? = photo.fileDataRepresentation(with: FullCustomizer())
    let image: CGImage? = photo.cgImageRepresentation()
    let preview: CGImage? = photo.previewCGImageRepresentation()
    let bracket: AVCaptureBracketedStillImageSettings? = photo.bracketSettings
    let sequence: Int = photo.sequenceCount
    let count: Int = photo.photoCount
    let lens: AVCaptureDevice.LensStabilizationStatus = photo.lensStabilizationStatus
    let statuses: [AVCaptureDevice.LensStabilizationStatus] = [.unsupported, .off, .active, .outOfRange, .unavailable]
    _ = (depth, portrait, hair, calibrationData, source, confidence, level, fallback, replaced, customized, preview, bracket, sequence)
    _ = (count, lens, statuses)

    // The matte and calibration classes, and the CGImage an app reads.
    if let hair {
        let type: AVSemanticSegmentationMatte.MatteType = hair.matteType
        let format: OSType = hair.pixelFormatType
        let pixels: CVPixelBuffer = hair.mattingImage
        let edited: AVSemanticSegmentationMatte? = try? hair.replacingSemanticSegmentationMatte(with: pixels)
        _ = (type, format, edited)
    }
    if let portrait {
        let pixels: CVPixelBuffer = portrait.mattingImage
        let edited: AVPortraitEffectsMatte? = try? portrait.replacingPortraitEffectsMatte(with: pixels)
        _ = (portrait.pixelFormatType, edited)
    }
    if let calibrationData {
        let size: CGSize = calibrationData.intrinsicMatrixReferenceDimensions
        let center: CGPoint = calibrationData.lensDistortionCenter
        let table: Data? = calibrationData.lensDistortionLookupTable
        _ = (size, center, table, calibrationData.inverseLensDistortionLookupTable, calibrationData.pixelSize)
    }
    if let image, let data = image.dataProvider?.data {
        let bytes: UnsafePointer<UInt8> = CFDataGetBytePtr(data)
        let length: CFIndex = CFDataGetLength(data)
        let alpha: CGImageAlphaInfo = image.alphaInfo
        let order: CGBitmapInfo = image.bitmapInfo.intersection(.byteOrderMask)
        _ = (bytes, length, alpha, order, image.width, image.height, image.bytesPerRow, image.bitsPerPixel, image.bitsPerComponent)
    }
}

@Suite("AVCapturePhotoOutput auxiliary spelling")
struct AVCapturePhotoOutputAuxiliarySpellingTests {
    @Test func unsupportedFeaturesAnswerAsAnIPhoneWithoutThem() {
        let output = AVCapturePhotoOutput()
        #expect(!output.isDepthDataDeliverySupported && !output.isDepthDataDeliveryEnabled)
        #expect(!output.isPortraitEffectsMatteDeliverySupported && output.availableSemanticSegmentationMatteTypes.isEmpty)
        #expect(!output.isConstantColorSupported && !output.isShutterSoundSuppressionSupported)
        output.isDepthDataDeliveryEnabled = output.isDepthDataDeliverySupported  // AVCam's line: false is accepted
        #expect(AVSemanticSegmentationMatte.MatteType.hair.rawValue == "AVSemanticSegmentationMatteTypeHair")
    }

    @Test func settingsDefaults() {
        let settings = AVCapturePhotoSettings()
        #expect(settings.embedsDepthDataInPhoto && settings.isDepthDataFiltered && !settings.isDepthDataDeliveryEnabled)
        #expect(settings.isAutoVirtualDeviceFusionEnabled && settings.metadata.isEmpty && settings.livePhotoMovieMetadata.isEmpty)
        let copy = settings.copy() as? AVCapturePhotoSettings
        #expect(copy?.uniqueID == settings.uniqueID)
        #expect(CGBitmapInfo.byteOrder32Little.rawValue == 0x2000 && CGImageAlphaInfo.noneSkipFirst.rawValue == 6)
    }
}
