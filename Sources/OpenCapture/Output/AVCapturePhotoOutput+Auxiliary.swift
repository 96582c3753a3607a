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

    var isDepthDataDeliverySupportedBacking: Bool { false }
    var isDepthDataDeliveryEnabledBacking: Bool {
        get { false }
        set { refuseEnabling(newValue, "setDepthDataDeliveryEnabled:", "depthDataDeliverySupported") }
    }

    var isPortraitEffectsMatteDeliverySupportedBacking: Bool { false }
    var isPortraitEffectsMatteDeliveryEnabledBacking: Bool {
        get { false }
        set { refuseEnabling(newValue, "setPortraitEffectsMatteDeliveryEnabled:", "portraitEffectsMatteDeliverySupported") }
    }

    var availableSemanticSegmentationMatteTypesBacking: [AVSemanticSegmentationMatte.MatteType] { [] }
    var enabledSemanticSegmentationMatteTypesBacking: [AVSemanticSegmentationMatte.MatteType] {
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

    var isVirtualDeviceFusionSupportedBacking: Bool { false }
    var isDualCameraFusionSupportedBacking: Bool { false }

    var isVirtualDeviceConstituentPhotoDeliverySupportedBacking: Bool { false }
    var isVirtualDeviceConstituentPhotoDeliveryEnabledBacking: Bool {
        get { false }
        set { refuseEnabling(newValue, "setVirtualDeviceConstituentPhotoDeliveryEnabled:", "virtualDeviceConstituentPhotoDeliverySupported") }
    }
    var isDualCameraDualPhotoDeliverySupportedBacking: Bool { false }
    var isDualCameraDualPhotoDeliveryEnabledBacking: Bool {
        get { false }
        set { refuseEnabling(newValue, "setDualCameraDualPhotoDeliveryEnabled:", "dualCameraDualPhotoDeliverySupported") }
    }

    var isCameraCalibrationDataDeliverySupportedBacking: Bool { false }

    var isAutoRedEyeReductionSupportedBacking: Bool { false }

    var isStillImageStabilizationSupportedBacking: Bool { device?.simulation != nil }

    var isContentAwareDistortionCorrectionSupportedBacking: Bool { false }
    var isContentAwareDistortionCorrectionEnabledBacking: Bool {
        get { false }
        set { refuseEnabling(newValue, "setContentAwareDistortionCorrectionEnabled:", "contentAwareDistortionCorrectionSupported") }
    }

    var isConstantColorSupportedBacking: Bool { false }
    var isConstantColorEnabledBacking: Bool {
        get { false }
        set { refuseEnabling(newValue, "setConstantColorEnabled:", "constantColorSupported") }
    }

    var isShutterSoundSuppressionSupportedBacking: Bool { false }
}
