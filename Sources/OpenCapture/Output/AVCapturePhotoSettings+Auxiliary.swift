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
    /// Whether flash photos get red-eye reduction when the output offers it. Default false:
    /// Apple's default is true only "on platforms that support automatic red-eye
    /// reduction", and `isAutoRedEyeReductionSupported` is false here.
    public var isAutoRedEyeReductionEnabled: Bool {
        get { auxiliary.autoRedEyeReduction }
        set { auxiliary.autoRedEyeReduction = newValue }
    }

    /// Deprecated (iOS 13: `photoQualityPrioritization`): whether still image
    /// stabilization may be used. Default true, false for Bayer raw captures and brackets.
    /// Here it is the multi-frame fusion of `.quality`: false keeps a `.quality` capture
    /// to one frame, and resolved settings' `isStillImageStabilizationEnabled` tells
    /// whether frames were fused.
    @available(*, deprecated, renamed: "photoQualityPrioritization")
    public var isAutoStillImageStabilizationEnabled: Bool {
        get { auxiliary.autoStillImageStabilization ?? auxiliary.autoProcessing }
        set { auxiliary.autoStillImageStabilization = newValue }
    }

    /// Whether a virtual device's constituent pictures may be fused. Default true (false for
    /// raw captures and brackets); no effect here, `isVirtualDeviceFusionSupported` is false.
    public var isAutoVirtualDeviceFusionEnabled: Bool {
        get { auxiliary.autoVirtualDeviceFusion ?? auxiliary.autoProcessing }
        set { auxiliary.autoVirtualDeviceFusion = newValue }
    }

    /// Deprecated name of `isAutoVirtualDeviceFusionEnabled`.
    @available(*, deprecated, renamed: "isAutoVirtualDeviceFusionEnabled")
    public var isAutoDualCameraFusionEnabled: Bool {
        get { auxiliary.autoDualCameraFusion ?? auxiliary.autoProcessing }
        set { auxiliary.autoDualCameraFusion = newValue }
    }

    /// Constituent devices to deliver one photo each (default empty). Non-empty raises at
    /// capture: the output's `isVirtualDeviceConstituentPhotoDeliveryEnabled` is false.
    public var virtualDeviceConstituentPhotoDeliveryEnabledDevices: [AVCaptureDevice] {
        get { auxiliary.constituentDevices }
        set { auxiliary.constituentDevices = newValue }
    }

    /// Deprecated name of constituent photo delivery (default false; true raises at capture).
    @available(*, deprecated, renamed: "virtualDeviceConstituentPhotoDeliveryEnabledDevices")
    public var isDualCameraDualPhotoDeliveryEnabled: Bool {
        get { auxiliary.dualCameraDualPhotoDelivery }
        set { auxiliary.dualCameraDualPhotoDelivery = newValue }
    }

    /// Whether depth comes with the photo (default false; true raises at capture, the
    /// output's `isDepthDataDeliveryEnabled` being false).
    public var isDepthDataDeliveryEnabled: Bool {
        get { auxiliary.depthDataDelivery }
        set { auxiliary.depthDataDelivery = newValue }
    }

    /// Whether delivered depth is written into the file (default true).
    public var embedsDepthDataInPhoto: Bool {
        get { auxiliary.embedsDepthData }
        set { auxiliary.embedsDepthData = newValue }
    }

    /// Whether holes in delivered depth are filled (default true).
    public var isDepthDataFiltered: Bool {
        get { auxiliary.depthDataFiltered }
        set { auxiliary.depthDataFiltered = newValue }
    }

    /// Whether `AVCameraCalibrationData` comes with the photo (default false; true raises
    /// at capture, `isCameraCalibrationDataDeliverySupported` being false).
    public var isCameraCalibrationDataDeliveryEnabled: Bool {
        get { auxiliary.cameraCalibrationDataDelivery }
        set { auxiliary.cameraCalibrationDataDelivery = newValue }
    }

    /// Whether a portrait effects matte comes with the photo (default false; true raises at
    /// capture, the output's `isPortraitEffectsMatteDeliveryEnabled` being false).
    public var isPortraitEffectsMatteDeliveryEnabled: Bool {
        get { auxiliary.portraitEffectsMatteDelivery }
        set { auxiliary.portraitEffectsMatteDelivery = newValue }
    }

    /// Whether a delivered portrait matte is written into the file (default true).
    public var embedsPortraitEffectsMatteInPhoto: Bool {
        get { auxiliary.embedsPortraitEffectsMatte }
        set { auxiliary.embedsPortraitEffectsMatte = newValue }
    }

    /// Semantic segmentation mattes to deliver (default empty); a type the output has not
    /// enabled raises at capture (the output enables none).
    public var enabledSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] {
        get { auxiliary.semanticSegmentationMatteTypes }
        set { auxiliary.semanticSegmentationMatteTypes = newValue }
    }

    /// Whether delivered segmentation mattes are written into the file (default true).
    public var embedsSemanticSegmentationMattesInPhoto: Bool {
        get { auxiliary.embedsSemanticSegmentationMattes }
        set { auxiliary.embedsSemanticSegmentationMattes = newValue }
    }

    /// Metadata to write into each photo of the request, with Image I/O's keys
    /// (`kCGImagePropertyExifDictionary` "{Exif}", "{TIFF}", "{GPS}", "Orientation" ...):
    /// where the photo's own metadata has the same key (inside those dictionaries, key by
    /// key) the value given replaces it. Default empty. Setting a key Image I/O does not
    /// define raises `NSInvalidArgumentException`, as iOS does. See
    /// `AVCapturePhoto.metadata` for what the file holds.
    public var metadata: [String: Any] {
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

    /// Movie-level metadata for the Live Photo movie (default empty; nil resets it): items
    /// of the QuickTime metadata key space with string values are written into the movie's
    /// 'mdta' metadata beside the content identifier. An item for the content identifier
    /// itself raises `NSInvalidArgumentException` (the output makes that one), as iOS does.
    public var livePhotoMovieMetadata: [AVMetadataItem]! {
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

    /// Codecs for a thumbnail inside a raw photo's DNG: none (the DNG writer stores the
    /// mosaic only), so a `rawEmbeddedThumbnailPhotoFormat` raises at capture.
    public var availableRawEmbeddedThumbnailPhotoCodecTypes: [AVVideoCodecType] { [] }

    /// A thumbnail to embed in the raw photo's DNG (default nil). Any format raises at
    /// capture: `availableRawEmbeddedThumbnailPhotoCodecTypes` is empty.
    public var rawEmbeddedThumbnailPhotoFormat: [String: Any]? {
        get { auxiliary.rawEmbeddedThumbnailPhotoFormat }
        set { auxiliary.rawEmbeddedThumbnailPhotoFormat = newValue }
    }

    /// Whether content-aware distortion correction may be used (default false; true raises
    /// at capture, the output's `isContentAwareDistortionCorrectionEnabled` being false).
    public var isAutoContentAwareDistortionCorrectionEnabled: Bool {
        get { auxiliary.autoContentAwareDistortionCorrection }
        set { auxiliary.autoContentAwareDistortionCorrection = newValue }
    }

    /// Whether the photo is a constant-colour one (default false; true raises at capture,
    /// the output's `isConstantColorEnabled` being false).
    public var isConstantColorEnabled: Bool {
        get { auxiliary.constantColor }
        set { auxiliary.constantColor = newValue }
    }

    /// Whether a constant-colour capture also delivers an ordinary photo (default false).
    public var isConstantColorFallbackPhotoDeliveryEnabled: Bool {
        get { auxiliary.constantColorFallbackPhotoDelivery }
        set { auxiliary.constantColorFallbackPhotoDelivery = newValue }
    }

    /// Whether to suppress the shutter sound (default false; true raises at capture, the
    /// output's `isShutterSoundSuppressionSupported` being false).
    public var isShutterSoundSuppressionEnabled: Bool {
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
            throw invalid("settings.shutterSoundSuppressionEnabled may not be YES unless self.shutterSoundSuppressionSupported is YES")
        }
    }
}
