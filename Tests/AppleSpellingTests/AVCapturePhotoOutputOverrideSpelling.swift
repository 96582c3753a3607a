// Apple's photo classes import from Objective-C with every member `open`: apps subclass
// them (test doubles above all) and override what they need. These subclasses compile only
// if those members are open in the class bodies; compiled, never instantiated.
import AVFoundation
import CoreVideo
import Foundation

final class OverridingPhotoOutput: AVCapturePhotoOutput, @unchecked Sendable {
    override func capturePhoto(with settings: AVCapturePhotoSettings, delegate: any AVCapturePhotoCaptureDelegate) {}
    override func supportedPhotoPixelFormatTypes(for fileType: AVFileType) -> [OSType] { [] }
    override func supportedPhotoCodecTypes(for fileType: AVFileType) -> [AVVideoCodecType] { [.jpeg] }
    override func setPreparedPhotoSettingsArray(
        _ preparedPhotoSettingsArray: [AVCapturePhotoSettings], completionHandler: ((Bool, (any Error)?) -> Void)? = nil
    ) {}
    override var isLivePhotoCaptureSupported: Bool { true }
    override var isLivePhotoCaptureEnabled: Bool {
        get { true }
        set {}
    }
    override var availablePhotoCodecTypes: [AVVideoCodecType] { [.jpeg] }
    override var availableRawPhotoPixelFormatTypes: [OSType] { [] }
    override var maxPhotoQualityPrioritization: AVCapturePhotoOutput.QualityPrioritization {
        get { .quality }
        set {}
    }
    override var maxBracketedCapturePhotoCount: Int { 3 }
    override var isLensStabilizationDuringBracketedCaptureSupported: Bool { true }
    override var isZeroShutterLagSupported: Bool { true }
    override var isResponsiveCaptureEnabled: Bool {
        get { false }
        set {}
    }
    override var captureReadiness: AVCapturePhotoOutput.CaptureReadiness { .ready }
    override var preparedPhotoSettingsArray: [AVCapturePhotoSettings] { [] }
    override var isFlashScene: Bool { true }
    override var photoSettingsForSceneMonitoring: AVCapturePhotoSettings? {
        get { nil }
        set {}
    }
    override var isDepthDataDeliverySupported: Bool { true }
    override var isAppleProRAWSupported: Bool { true }
    override var isAutoDeferredPhotoDeliverySupported: Bool { true }
    override var supportedFlashModes: [AVCaptureDevice.FlashMode] { [.off] }
    override var maxPhotoDimensions: CMVideoDimensions {
        get { CMVideoDimensions(width: 1, height: 1) }
        set {}
    }
}

final class OverridingPhotoSettings: AVCapturePhotoSettings, @unchecked Sendable {
    override var uniqueID: Int64 { 7 }
    override var format: [String: Any]? { nil }
    override var rawPhotoPixelFormatType: OSType { 0 }
    override var processedFileType: AVFileType? { .jpg }
    override var flashMode: AVCaptureDevice.FlashMode {
        get { .off }
        set {}
    }
    override var photoQualityPrioritization: AVCapturePhotoOutput.QualityPrioritization {
        get { .speed }
        set {}
    }
    override var isAutoRedEyeReductionEnabled: Bool {
        get { false }
        set {}
    }
    override var metadata: [String: Any] {
        get { [:] }
        set {}
    }
    override var availablePreviewPhotoPixelFormatTypes: [OSType] { [] }
}

final class OverridingBracketSettings: AVCapturePhotoBracketSettings, @unchecked Sendable {
    override var bracketedSettings: [AVCaptureBracketedStillImageSettings] { [] }
    override var isLensStabilizationEnabled: Bool {
        get { false }
        set {}
    }
}

final class OverridingResolvedSettings: AVCaptureResolvedPhotoSettings, @unchecked Sendable {
    override var uniqueID: Int64 { 7 }
    override var photoDimensions: CMVideoDimensions { CMVideoDimensions(width: 1, height: 1) }
    override var expectedPhotoCount: Int { 3 }
    override var isFlashEnabled: Bool { true }
    override var photoProcessingTimeRange: CMTimeRange { .invalid }
    override var isRedEyeReductionEnabled: Bool { false }
    override var livePhotoMovieDimensions: CMVideoDimensions { CMVideoDimensions(width: 0, height: 0) }
    override func dimensionsForSemanticSegmentationMatte(ofType semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType) -> CMVideoDimensions {
        CMVideoDimensions(width: 0, height: 0)
    }
}

final class OverridingPhoto: AVCapturePhoto, @unchecked Sendable {
    override var pixelBuffer: CVPixelBuffer? { nil }
    override var timestamp: CMTime { .zero }
    override var metadata: [String: Any] { [:] }
    override var isRawPhoto: Bool { true }
    override var photoCount: Int { 1 }
    override var resolvedSettings: AVCaptureResolvedPhotoSettings { super.resolvedSettings }
    override var bracketSettings: AVCaptureBracketedStillImageSettings? { nil }
    override var sequenceCount: Int { 1 }
    override var lensStabilizationStatus: AVCaptureDevice.LensStabilizationStatus { .off }
    override var sourceDeviceType: AVCaptureDevice.DeviceType? { .builtInWideAngleCamera }
    override func fileDataRepresentation() -> Data? { Data() }
    override func fileDataRepresentation(with customizer: any AVCapturePhotoFileDataRepresentationCustomizer) -> Data? { nil }
    override func cgImageRepresentation() -> CGImage? { nil }
    override func previewCGImageRepresentation() -> CGImage? { nil }
    override var depthData: AVDepthData? { nil }
    override var cameraCalibrationData: AVCameraCalibrationData? { nil }
    override var isConstantColorFallbackPhoto: Bool { false }
    override var embeddedThumbnailPhotoFormat: [String: Any]? { nil }
    override var previewPixelBuffer: CVPixelBuffer? { nil }
}

/// Overrides the two deprecated class methods that turn sample buffers into files.
final class PhotoOutputClassMethodsDouble: AVCapturePhotoOutput, @unchecked Sendable {
    @available(*, deprecated)
    override class func jpegPhotoDataRepresentation(forJPEGSampleBuffer JPEGSampleBuffer: CMSampleBuffer, previewPhotoSampleBuffer: CMSampleBuffer?) -> Data? { super.jpegPhotoDataRepresentation(forJPEGSampleBuffer: JPEGSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer) }
    @available(*, deprecated)
    override class func dngPhotoDataRepresentation(forRawSampleBuffer rawSampleBuffer: CMSampleBuffer, previewPhotoSampleBuffer: CMSampleBuffer?) -> Data? { super.dngPhotoDataRepresentation(forRawSampleBuffer: rawSampleBuffer, previewPhotoSampleBuffer: previewPhotoSampleBuffer) }
}

/// Overrides the async form of preparing settings (one class overrides one form on iOS).
final class PhotoOutputAsyncPreparationDouble: AVCapturePhotoOutput, @unchecked Sendable {
    override func setPreparedPhotoSettingsArray(_ preparedPhotoSettingsArray: [AVCapturePhotoSettings]) async throws -> Bool { try await super.setPreparedPhotoSettingsArray(preparedPhotoSettingsArray) }
}
