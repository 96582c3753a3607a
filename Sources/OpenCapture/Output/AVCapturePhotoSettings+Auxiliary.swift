import Foundation

/// The settings' switches for what the output offers beyond the photo itself. Stored as
/// Apple's defaults; `capturePhoto(with:delegate:)` raises (`validateAuxiliary`) for a
/// switch the output does not offer, as iOS does.
struct AuxiliarySettings {
    var autoProcessing = true
    var autoStillImageStabilization: Bool?
    var autoVirtualDeviceFusion: Bool?
    var autoDualCameraFusion: Bool?
    var autoRedEyeReduction = false
    var constituentDevices: [AVCaptureDevice] = []
    var dualCameraDualPhotoDelivery = false
    var depthDataDelivery = false
    var embedsDepthData = true
    var depthDataFiltered = true
    var cameraCalibrationDataDelivery = false
    var portraitEffectsMatteDelivery = false
    var embedsPortraitEffectsMatte = true
    var semanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] = []
    var embedsSemanticSegmentationMattes = true
    var metadata: [String: Any] = [:]
    var livePhotoMovieMetadata: [AVMetadataItem] = []
    var rawEmbeddedThumbnailPhotoFormat: [String: Any]?
    var autoContentAwareDistortionCorrection = false
    var constantColor = false
    var constantColorFallbackPhotoDelivery = false
    var shutterSoundSuppression = false
}

extension AVCapturePhotoSettings {
    var isAutoRedEyeReductionEnabledBacking: Bool {
        get { auxiliary.autoRedEyeReduction }
        set { auxiliary.autoRedEyeReduction = newValue }
    }

    var isAutoStillImageStabilizationEnabledBacking: Bool {
        get { auxiliary.autoStillImageStabilization ?? auxiliary.autoProcessing }
        set { auxiliary.autoStillImageStabilization = newValue }
    }

    var isAutoVirtualDeviceFusionEnabledBacking: Bool {
        get { auxiliary.autoVirtualDeviceFusion ?? auxiliary.autoProcessing }
        set { auxiliary.autoVirtualDeviceFusion = newValue }
    }

    var isAutoDualCameraFusionEnabledBacking: Bool {
        get { auxiliary.autoDualCameraFusion ?? auxiliary.autoProcessing }
        set { auxiliary.autoDualCameraFusion = newValue }
    }

    var virtualDeviceConstituentPhotoDeliveryEnabledDevicesBacking: [AVCaptureDevice] {
        get { auxiliary.constituentDevices }
        set { auxiliary.constituentDevices = newValue }
    }

    var isDualCameraDualPhotoDeliveryEnabledBacking: Bool {
        get { auxiliary.dualCameraDualPhotoDelivery }
        set { auxiliary.dualCameraDualPhotoDelivery = newValue }
    }

    var isDepthDataDeliveryEnabledBacking: Bool {
        get { auxiliary.depthDataDelivery }
        set { auxiliary.depthDataDelivery = newValue }
    }

    var embedsDepthDataInPhotoBacking: Bool {
        get { auxiliary.embedsDepthData }
        set { auxiliary.embedsDepthData = newValue }
    }

    var isDepthDataFilteredBacking: Bool {
        get { auxiliary.depthDataFiltered }
        set { auxiliary.depthDataFiltered = newValue }
    }

    var isCameraCalibrationDataDeliveryEnabledBacking: Bool {
        get { auxiliary.cameraCalibrationDataDelivery }
        set { auxiliary.cameraCalibrationDataDelivery = newValue }
    }

    var isPortraitEffectsMatteDeliveryEnabledBacking: Bool {
        get { auxiliary.portraitEffectsMatteDelivery }
        set { auxiliary.portraitEffectsMatteDelivery = newValue }
    }

    var embedsPortraitEffectsMatteInPhotoBacking: Bool {
        get { auxiliary.embedsPortraitEffectsMatte }
        set { auxiliary.embedsPortraitEffectsMatte = newValue }
    }

    var enabledSemanticSegmentationMatteTypesBacking: [AVSemanticSegmentationMatte.MatteType] {
        get { auxiliary.semanticSegmentationMatteTypes }
        set { auxiliary.semanticSegmentationMatteTypes = newValue }
    }

    var embedsSemanticSegmentationMattesInPhotoBacking: Bool {
        get { auxiliary.embedsSemanticSegmentationMattes }
        set { auxiliary.embedsSemanticSegmentationMattes = newValue }
    }

    var metadataBacking: [String: Any] {
        get { auxiliary.metadata }
        set {
            if let key = newValue.keys.sorted().first(where: { !PhotoMetadata.topLevelKeys.contains($0) }) {
                AVCaptureException(
                    .invalidArgument,
                    "*** -[AVCapturePhotoSettings setMetadata:] Unsupported metadata key \(key) - keys must come from <ImageIO/CGImageProperties.h>"
                ).raise()
            }
            auxiliary.metadata = newValue
        }
    }

    var livePhotoMovieMetadataBacking: [AVMetadataItem]! {
        get { auxiliary.livePhotoMovieMetadata }
        set {
            let items = newValue ?? []
            if items.contains(where: { Self.isContentIdentifier($0) }) {
                AVCaptureException(
                    .invalidArgument,
                    "*** -[AVCapturePhotoSettings setLivePhotoMovieMetadata:] livePhotoMovieMetadata may not contain AVMetadataQuickTimeMetadataKeyContentIdentifier"
                ).raise()
            }
            auxiliary.livePhotoMovieMetadata = items
        }
    }

    private static func isContentIdentifier(_ item: AVMetadataItem) -> Bool {
        // The identifier is made from the key space and key when not set.
        item.identifier?.rawValue == "mdta/com.apple.quicktime.content.identifier"
    }

    var availableRawEmbeddedThumbnailPhotoCodecTypesBacking: [AVVideoCodecType] { [] }

    var rawEmbeddedThumbnailPhotoFormatBacking: [String: Any]? {
        get { auxiliary.rawEmbeddedThumbnailPhotoFormat }
        set { auxiliary.rawEmbeddedThumbnailPhotoFormat = newValue }
    }

    var isAutoContentAwareDistortionCorrectionEnabledBacking: Bool {
        get { auxiliary.autoContentAwareDistortionCorrection }
        set { auxiliary.autoContentAwareDistortionCorrection = newValue }
    }

    var isConstantColorEnabledBacking: Bool {
        get { auxiliary.constantColor }
        set { auxiliary.constantColor = newValue }
    }

    var isConstantColorFallbackPhotoDeliveryEnabledBacking: Bool {
        get { auxiliary.constantColorFallbackPhotoDelivery }
        set { auxiliary.constantColorFallbackPhotoDelivery = newValue }
    }

    var isShutterSoundSuppressionEnabledBacking: Bool {
        get { auxiliary.shutterSoundSuppression }
        set { auxiliary.shutterSoundSuppression = newValue }
    }
}

extension AVCapturePhotoOutput {
    /// Apple's capture-time checks of the switches above (the output offers none of the
    /// features they ask for).
    func validateAuxiliary(_ settings: AVCapturePhotoSettings, _ invalid: (String) -> AVCaptureException) throws(AVCaptureException) {
        let auxiliary = settings.auxiliary
        if !auxiliary.constituentDevices.isEmpty && !isVirtualDeviceConstituentPhotoDeliveryEnabled {
            throw invalid("settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices may not be set unless self.virtualDeviceConstituentPhotoDeliveryEnabled is YES")
        }
        if auxiliary.dualCameraDualPhotoDelivery {
            throw invalid("settings.dualCameraDualPhotoDeliveryEnabled may not be YES unless self.dualCameraDualPhotoDeliveryEnabled is YES")
        }
        if auxiliary.depthDataDelivery && !isDepthDataDeliveryEnabled {
            throw invalid("settings.depthDataDeliveryEnabled may not be YES unless self.depthDataDeliveryEnabled is YES")
        }
        if auxiliary.cameraCalibrationDataDelivery && !isCameraCalibrationDataDeliverySupported {
            throw invalid("settings.cameraCalibrationDataDeliveryEnabled may not be YES unless self.cameraCalibrationDataDeliverySupported is YES")
        }
        if auxiliary.portraitEffectsMatteDelivery && !isPortraitEffectsMatteDeliveryEnabled {
            throw invalid("settings.portraitEffectsMatteDeliveryEnabled may not be YES unless self.portraitEffectsMatteDeliveryEnabled is YES")
        }
        if let type = auxiliary.semanticSegmentationMatteTypes.first(where: { !enabledSemanticSegmentationMatteTypes.contains($0) }) {
            throw invalid("settings.enabledSemanticSegmentationMatteTypes contains \(type.rawValue), which is not in self.enabledSemanticSegmentationMatteTypes")
        }
        if let format = auxiliary.rawEmbeddedThumbnailPhotoFormat {
            let offered = AVCapturePhotoSettings.codec(in: format).map { settings.availableRawEmbeddedThumbnailPhotoCodecTypes.contains($0) } ?? false
            if settings.rawPhotoPixelFormatType == 0 || !offered {
                throw invalid("rawEmbeddedThumbnailPhotoFormat must contain an AVVideoCodecKey present in availableRawEmbeddedThumbnailPhotoCodecTypes")
            }
        }
        if auxiliary.autoContentAwareDistortionCorrection && !isContentAwareDistortionCorrectionEnabled {
            throw invalid("settings.autoContentAwareDistortionCorrectionEnabled may not be YES unless self.contentAwareDistortionCorrectionEnabled is YES")
        }
        if auxiliary.constantColor && !isConstantColorEnabled {
            throw invalid("settings.constantColorEnabled may not be YES unless self.constantColorEnabled is YES")
        }
        if auxiliary.shutterSoundSuppression && !isShutterSoundSuppressionSupported {
            throw invalid("settings.shutterSoundSuppressionEnabled may not be set to YES unless self.shutterSoundSuppressionSupported is YES")
        }
    }
}
