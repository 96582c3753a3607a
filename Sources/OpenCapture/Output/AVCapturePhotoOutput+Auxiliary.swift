import Foundation

/// What the simulated and V4L2 cameras do not make, answered as an iPhone without it
/// answers (and the deprecated still image stabilization, which they do): depth, portrait mattes, semantic segmentation, virtual-device fusion and
/// constituent photos, calibration data, red-eye reduction, content-aware distortion
/// correction, constant colour and shutter-sound suppression are unsupported. Each
/// `...Enabled` switch reads false; setting it true raises `NSInvalidArgumentException`
/// with Apple's reason, as iOS does when the matching `...Supported` is false.
extension AVCapturePhotoOutput {
    /// Raises Apple's exception for enabling an unsupported feature.
    func refuseEnabling(_ newValue: Bool, _ setter: String, _ supported: String) {
        guard newValue else { return }
        AVCaptureException(.invalidArgument, selectorReason("AVCapturePhotoOutput", setter, "\(supported) is NO")).raise()
    }

    /// Whether depth can come with photos: false, no camera here measures depth.
    public var isDepthDataDeliverySupported: Bool { false }
    /// Always false; true raises, as iOS does without depth.
    public var isDepthDataDeliveryEnabled: Bool {
        get { false }
        set { refuseEnabling(newValue, "setDepthDataDeliveryEnabled:", "depthDataDeliverySupported") }
    }

    /// Whether portrait effects mattes can come with photos: false (they need depth).
    public var isPortraitEffectsMatteDeliverySupported: Bool { false }
    /// Always false; true raises, as iOS does without portrait mattes.
    public var isPortraitEffectsMatteDeliveryEnabled: Bool {
        get { false }
        set { refuseEnabling(newValue, "setPortraitEffectsMatteDeliveryEnabled:", "portraitEffectsMatteDeliverySupported") }
    }

    /// Semantic segmentation mattes photos can carry: none.
    public var availableSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] { [] }
    /// Always empty; a type not in `availableSemanticSegmentationMatteTypes` raises.
    public var enabledSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] {
        get { [] }
        set {
            guard let type = newValue.first(where: { !availableSemanticSegmentationMatteTypes.contains($0) }) else { return }
            AVCaptureException(
                .invalidArgument,
                selectorReason(
                    "AVCapturePhotoOutput", "setEnabledSemanticSegmentationMatteTypes:",
                    "\(type.rawValue) is not present in availableSemanticSegmentationMatteTypes")
            ).raise()
        }
    }

    /// Whether a virtual device's constituent pictures are fused: false (the simulated
    /// virtual devices switch between constituents, they do not fuse them).
    public var isVirtualDeviceFusionSupported: Bool { false }
    /// Deprecated name of `isVirtualDeviceFusionSupported`: false.
    @available(*, deprecated, renamed: "isVirtualDeviceFusionSupported")
    public var isDualCameraFusionSupported: Bool { false }

    /// Whether one photo per constituent camera can be delivered: false.
    public var isVirtualDeviceConstituentPhotoDeliverySupported: Bool { false }
    /// Always false; true raises.
    public var isVirtualDeviceConstituentPhotoDeliveryEnabled: Bool {
        get { false }
        set { refuseEnabling(newValue, "setVirtualDeviceConstituentPhotoDeliveryEnabled:", "virtualDeviceConstituentPhotoDeliverySupported") }
    }
    /// Deprecated name of `isVirtualDeviceConstituentPhotoDeliverySupported`: false.
    @available(*, deprecated, renamed: "isVirtualDeviceConstituentPhotoDeliverySupported")
    public var isDualCameraDualPhotoDeliverySupported: Bool { false }
    /// Deprecated name of `isVirtualDeviceConstituentPhotoDeliveryEnabled`: false; true raises.
    @available(*, deprecated, renamed: "isVirtualDeviceConstituentPhotoDeliveryEnabled")
    public var isDualCameraDualPhotoDeliveryEnabled: Bool {
        get { false }
        set { refuseEnabling(newValue, "setDualCameraDualPhotoDeliveryEnabled:", "dualCameraDualPhotoDeliverySupported") }
    }

    /// Whether `AVCameraCalibrationData` can come with photos: false (it needs constituent
    /// photo delivery).
    public var isCameraCalibrationDataDeliverySupported: Bool { false }

    /// Whether flash photos get red-eye reduction: false, no red-eye processing here.
    public var isAutoRedEyeReductionSupported: Bool { false }

    /// Deprecated (iOS 13: `maxPhotoQualityPrioritization`): whether still image
    /// stabilization is offered. True with a simulated camera, whose `.quality` photos fuse
    /// several frames (resolved settings' `isStillImageStabilizationEnabled`); false for
    /// V4L2 cameras and with none.
    @available(*, deprecated, renamed: "maxPhotoQualityPrioritization")
    public var isStillImageStabilizationSupported: Bool { device?.simulation != nil }

    /// Whether content-aware distortion correction is offered: false.
    public var isContentAwareDistortionCorrectionSupported: Bool { false }
    /// Always false; true raises.
    public var isContentAwareDistortionCorrectionEnabled: Bool {
        get { false }
        set { refuseEnabling(newValue, "setContentAwareDistortionCorrectionEnabled:", "contentAwareDistortionCorrectionSupported") }
    }

    /// Whether constant-colour photos (flash-lit estimates under D65) are offered: false.
    public var isConstantColorSupported: Bool { false }
    /// Always false; true raises.
    public var isConstantColorEnabled: Bool {
        get { false }
        set { refuseEnabling(newValue, "setConstantColorEnabled:", "constantColorSupported") }
    }

    /// Whether the shutter sound can be suppressed: false, Apple's answer "on all other
    /// platforms" than iOS (no shutter sound is played here).
    public var isShutterSoundSuppressionSupported: Bool { false }
}
