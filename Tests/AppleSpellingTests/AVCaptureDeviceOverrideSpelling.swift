// Subclasses of the AVCaptureDevice.h classes overriding every member the header declares,
// as app test doubles and wrappers write them against Apple's SDK (where every member of
// these Objective-C classes is open). Compile-only: each override must compile.
// The device's class-body members are overridden in AVCaptureOverridesSpelling.swift.
import AVFoundation
import CoreMedia
import Foundation


/// Overrides the device members the library implements in extension files (completion-handler forms).
final class DeviceExtensionMembersDouble: AVCaptureDevice, @unchecked Sendable {
    override var activeFormat: Format {
        get { super.activeFormat }
        set { super.activeFormat = newValue }
    }
    override var activeVideoMinFrameDuration: CMTime {
        get { super.activeVideoMinFrameDuration }
        set { super.activeVideoMinFrameDuration = newValue }
    }
    override var activeVideoMaxFrameDuration: CMTime {
        get { super.activeVideoMaxFrameDuration }
        set { super.activeVideoMaxFrameDuration = newValue }
    }
    override class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus { super.authorizationStatus(for: mediaType) }
    override class func requestAccess(for mediaType: AVMediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void) { super.requestAccess(for: mediaType, completionHandler: handler) }
    override class var centerStageControlMode: CenterStageControlMode {
        get { super.centerStageControlMode }
        set { super.centerStageControlMode = newValue }
    }
    override class var isCenterStageEnabled: Bool {
        get { super.isCenterStageEnabled }
        set { super.isCenterStageEnabled = newValue }
    }
    override var isCenterStageActive: Bool { super.isCenterStageActive }
    override var isCenterStageRectOfInterestSupported: Bool { super.isCenterStageRectOfInterestSupported }
    override var centerStageRectOfInterest: CGRect {
        get { super.centerStageRectOfInterest }
        set { super.centerStageRectOfInterest = newValue }
    }
    override class var isPortraitEffectEnabled: Bool { super.isPortraitEffectEnabled }
    override var isPortraitEffectActive: Bool { super.isPortraitEffectActive }
    override class var isStudioLightEnabled: Bool { super.isStudioLightEnabled }
    override var isStudioLightActive: Bool { super.isStudioLightActive }
    override class var isBackgroundReplacementEnabled: Bool { super.isBackgroundReplacementEnabled }
    override var isBackgroundReplacementActive: Bool { super.isBackgroundReplacementActive }
    override class func extrinsicMatrix(from fromDevice: AVCaptureDevice, to toDevice: AVCaptureDevice) -> Data? { super.extrinsicMatrix(from: fromDevice, to: toDevice) }
    override var isGlobalToneMappingEnabled: Bool {
        get { super.isGlobalToneMappingEnabled }
        set { super.isGlobalToneMappingEnabled = newValue }
    }
    override var isGeometricDistortionCorrectionSupported: Bool { super.isGeometricDistortionCorrectionSupported }
    override var isGeometricDistortionCorrectionEnabled: Bool {
        get { super.isGeometricDistortionCorrectionEnabled }
        set { super.isGeometricDistortionCorrectionEnabled = newValue }
    }
    override var isAutoVideoFrameRateEnabled: Bool {
        get { super.isAutoVideoFrameRateEnabled }
        set { super.isAutoVideoFrameRateEnabled = newValue }
    }
    @available(*, deprecated)
    override var dualCameraSwitchOverVideoZoomFactor: CGFloat { super.dualCameraSwitchOverVideoZoomFactor }
    override var activeColorSpace: AVCaptureColorSpace {
        get { super.activeColorSpace }
        set { super.activeColorSpace = newValue }
    }
    override var activeDepthDataFormat: AVCaptureDevice.Format? {
        get { super.activeDepthDataFormat }
        set { super.activeDepthDataFormat = newValue }
    }
    override var activeDepthDataMinFrameDuration: CMTime {
        get { super.activeDepthDataMinFrameDuration }
        set { super.activeDepthDataMinFrameDuration = newValue }
    }
    override class func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? { super.`default`(for: mediaType) }
    override class func `default`(_ deviceType: DeviceType, for mediaType: AVMediaType?, position: Position) -> AVCaptureDevice? { super.`default`(deviceType, for: mediaType, position: position) }
    @available(*, deprecated)
    override class func devices(for mediaType: AVMediaType) -> [AVCaptureDevice] { super.devices(for: mediaType) }
    @available(*, deprecated)
    override class func devices() -> [AVCaptureDevice] { super.devices() }
    override func isExposureModeSupported(_ exposureMode: ExposureMode) -> Bool { super.isExposureModeSupported(exposureMode) }
    override var exposureMode: ExposureMode {
        get { super.exposureMode }
        set { super.exposureMode = newValue }
    }
    override var isAdjustingExposure: Bool { super.isAdjustingExposure }
    override var isExposurePointOfInterestSupported: Bool { super.isExposurePointOfInterestSupported }
    override var exposurePointOfInterest: CGPoint {
        get { super.exposurePointOfInterest }
        set { super.exposurePointOfInterest = newValue }
    }
    override var exposureTargetOffset: Float { super.exposureTargetOffset }
    override func setExposureModeCustom(duration: CMTime, iso ISO: Float, completionHandler handler: ((CMTime) -> Void)? = nil) { super.setExposureModeCustom(duration: duration, iso: ISO, completionHandler: handler) }
    override var minExposureTargetBias: Float { super.minExposureTargetBias }
    override var maxExposureTargetBias: Float { super.maxExposureTargetBias }
    override var exposureTargetBias: Float { super.exposureTargetBias }
    override func setExposureTargetBias(_ bias: Float, completionHandler handler: ((CMTime) -> Void)? = nil) { super.setExposureTargetBias(bias, completionHandler: handler) }
    override var activeMaxExposureDuration: CMTime {
        get { super.activeMaxExposureDuration }
        set { super.activeMaxExposureDuration = newValue }
    }
    override var automaticallyAdjustsFaceDrivenAutoFocusEnabled: Bool {
        get { super.automaticallyAdjustsFaceDrivenAutoFocusEnabled }
        set { super.automaticallyAdjustsFaceDrivenAutoFocusEnabled = newValue }
    }
    override var isFaceDrivenAutoFocusEnabled: Bool {
        get { super.isFaceDrivenAutoFocusEnabled }
        set { super.isFaceDrivenAutoFocusEnabled = newValue }
    }
    override var automaticallyAdjustsFaceDrivenAutoExposureEnabled: Bool {
        get { super.automaticallyAdjustsFaceDrivenAutoExposureEnabled }
        set { super.automaticallyAdjustsFaceDrivenAutoExposureEnabled = newValue }
    }
    override var isFaceDrivenAutoExposureEnabled: Bool {
        get { super.isFaceDrivenAutoExposureEnabled }
        set { super.isFaceDrivenAutoExposureEnabled = newValue }
    }
    override var hasFlash: Bool { super.hasFlash }
    override var isFlashAvailable: Bool { super.isFlashAvailable }
    @available(*, deprecated)
    override var isFlashActive: Bool { super.isFlashActive }
    @available(*, deprecated)
    override func isFlashModeSupported(_ flashMode: FlashMode) -> Bool { super.isFlashModeSupported(flashMode) }
    @available(*, deprecated)
    override var flashMode: FlashMode {
        get { super.flashMode }
        set { super.flashMode = newValue }
    }
    override func isFocusModeSupported(_ focusMode: FocusMode) -> Bool { super.isFocusModeSupported(focusMode) }
    override var focusMode: FocusMode {
        get { super.focusMode }
        set { super.focusMode = newValue }
    }
    override var isAdjustingFocus: Bool { super.isAdjustingFocus }
    override var isFocusPointOfInterestSupported: Bool { super.isFocusPointOfInterestSupported }
    override var focusPointOfInterest: CGPoint {
        get { super.focusPointOfInterest }
        set { super.focusPointOfInterest = newValue }
    }
    override var isAutoFocusRangeRestrictionSupported: Bool { super.isAutoFocusRangeRestrictionSupported }
    override var autoFocusRangeRestriction: AutoFocusRangeRestriction {
        get { super.autoFocusRangeRestriction }
        set { super.autoFocusRangeRestriction = newValue }
    }
    override var isSmoothAutoFocusSupported: Bool { super.isSmoothAutoFocusSupported }
    override var isSmoothAutoFocusEnabled: Bool {
        get { super.isSmoothAutoFocusEnabled }
        set { super.isSmoothAutoFocusEnabled = newValue }
    }
    override var lensPosition: Float { super.lensPosition }
    override var minimumFocusDistance: Int { super.minimumFocusDistance }
    override var isLockingFocusWithCustomLensPositionSupported: Bool { super.isLockingFocusWithCustomLensPositionSupported }
    override func setFocusModeLocked(lensPosition: Float, completionHandler handler: ((CMTime) -> Void)? = nil) { super.setFocusModeLocked(lensPosition: lensPosition, completionHandler: handler) }
    override var nominalFocalLengthIn35mmFilm: Float { super.nominalFocalLengthIn35mmFilm }
    override var isInUseByAnotherApplication: Bool { super.isInUseByAnotherApplication }
    override var isLowLightBoostSupported: Bool { super.isLowLightBoostSupported }
    override var isLowLightBoostEnabled: Bool { super.isLowLightBoostEnabled }
    override var automaticallyEnablesLowLightBoostWhenAvailable: Bool {
        get { super.automaticallyEnablesLowLightBoostWhenAvailable }
        set { super.automaticallyEnablesLowLightBoostWhenAvailable = newValue }
    }
    override class var preferredMicrophoneMode: MicrophoneMode { super.preferredMicrophoneMode }
    override class var activeMicrophoneMode: MicrophoneMode { super.activeMicrophoneMode }
    override class var systemPreferredCamera: AVCaptureDevice? { super.systemPreferredCamera }
    override class var userPreferredCamera: AVCaptureDevice? {
        get { super.userPreferredCamera }
        set { super.userPreferredCamera = newValue }
    }
    override class var reactionEffectsEnabled: Bool { super.reactionEffectsEnabled }
    override class var reactionEffectGesturesEnabled: Bool { super.reactionEffectGesturesEnabled }
    override var canPerformReactionEffects: Bool { super.canPerformReactionEffects }
    override var availableReactionTypes: Set<AVCaptureReactionType> { super.availableReactionTypes }
    override var reactionEffectsInProgress: [AVCaptureReactionEffectState] { super.reactionEffectsInProgress }
    override func performEffect(for reactionType: AVCaptureReactionType) { super.performEffect(for: reactionType) }
    override var isSubjectAreaChangeMonitoringEnabled: Bool {
        get { super.isSubjectAreaChangeMonitoringEnabled }
        set { super.isSubjectAreaChangeMonitoringEnabled = newValue }
    }
    override var systemPressureState: SystemPressureState { super.systemPressureState }
    override class func showSystemUserInterface(_ systemUserInterface: SystemUserInterface) { super.showSystemUserInterface(systemUserInterface) }
    override var hasTorch: Bool { super.hasTorch }
    override var isTorchAvailable: Bool { super.isTorchAvailable }
    override var isTorchActive: Bool { super.isTorchActive }
    override var torchLevel: Float { super.torchLevel }
    override func isTorchModeSupported(_ torchMode: TorchMode) -> Bool { super.isTorchModeSupported(torchMode) }
    override var torchMode: TorchMode {
        get { super.torchMode }
        set { super.torchMode = newValue }
    }
    override func setTorchModeOn(level: Float) throws { try super.setTorchModeOn(level: level) }
    override var transportControlsSupported: Bool { super.transportControlsSupported }
    override var transportControlsPlaybackMode: TransportControlsPlaybackMode { super.transportControlsPlaybackMode }
    override var transportControlsSpeed: TransportControlsSpeed { super.transportControlsSpeed }
    override func setTransportControlsPlaybackMode(_ mode: TransportControlsPlaybackMode, speed: TransportControlsSpeed) { super.setTransportControlsPlaybackMode(mode, speed: speed) }
    override var automaticallyAdjustsVideoHDREnabled: Bool {
        get { super.automaticallyAdjustsVideoHDREnabled }
        set { super.automaticallyAdjustsVideoHDREnabled = newValue }
    }
    override var isVideoHDREnabled: Bool {
        get { super.isVideoHDREnabled }
        set { super.isVideoHDREnabled = newValue }
    }
    override var isVirtualDevice: Bool { super.isVirtualDevice }
    override var constituentDevices: [AVCaptureDevice] { super.constituentDevices }
    override var virtualDeviceSwitchOverVideoZoomFactors: [NSNumber] { super.virtualDeviceSwitchOverVideoZoomFactors }
    override var displayVideoZoomFactorMultiplier: CGFloat { super.displayVideoZoomFactorMultiplier }
    override var activePrimaryConstituent: AVCaptureDevice? { super.activePrimaryConstituent }
    override var primaryConstituentDeviceSwitchingBehavior: PrimaryConstituentDeviceSwitchingBehavior { super.primaryConstituentDeviceSwitchingBehavior }
    override var primaryConstituentDeviceRestrictedSwitchingBehaviorConditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions { super.primaryConstituentDeviceRestrictedSwitchingBehaviorConditions }
    override var activePrimaryConstituentDeviceSwitchingBehavior: PrimaryConstituentDeviceSwitchingBehavior { super.activePrimaryConstituentDeviceSwitchingBehavior }
    override var activePrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions { super.activePrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions }
    override func setPrimaryConstituentDeviceSwitchingBehavior(_ switchingBehavior: PrimaryConstituentDeviceSwitchingBehavior, restrictedSwitchingBehaviorConditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions) { super.setPrimaryConstituentDeviceSwitchingBehavior(switchingBehavior, restrictedSwitchingBehaviorConditions: restrictedSwitchingBehaviorConditions) }
    override var supportedFallbackPrimaryConstituentDevices: [AVCaptureDevice] { super.supportedFallbackPrimaryConstituentDevices }
    override var fallbackPrimaryConstituentDevices: [AVCaptureDevice] {
        get { super.fallbackPrimaryConstituentDevices }
        set { super.fallbackPrimaryConstituentDevices = newValue }
    }
    override func isWhiteBalanceModeSupported(_ whiteBalanceMode: WhiteBalanceMode) -> Bool { super.isWhiteBalanceModeSupported(whiteBalanceMode) }
    override var whiteBalanceMode: WhiteBalanceMode {
        get { super.whiteBalanceMode }
        set { super.whiteBalanceMode = newValue }
    }
    override var isAdjustingWhiteBalance: Bool { super.isAdjustingWhiteBalance }
    override var maxWhiteBalanceGain: Float { super.maxWhiteBalanceGain }
    override var isLockingWhiteBalanceWithCustomDeviceGainsSupported: Bool { super.isLockingWhiteBalanceWithCustomDeviceGainsSupported }
    override var deviceWhiteBalanceGains: WhiteBalanceGains { super.deviceWhiteBalanceGains }
    override var grayWorldDeviceWhiteBalanceGains: WhiteBalanceGains { super.grayWorldDeviceWhiteBalanceGains }
    override func setWhiteBalanceModeLocked(with whiteBalanceGains: WhiteBalanceGains, completionHandler handler: ((CMTime) -> Void)? = nil) { super.setWhiteBalanceModeLocked(with: whiteBalanceGains, completionHandler: handler) }
    override func chromaticityValues(for whiteBalanceGains: WhiteBalanceGains) -> WhiteBalanceChromaticityValues { super.chromaticityValues(for: whiteBalanceGains) }
    override func temperatureAndTintValues(for whiteBalanceGains: WhiteBalanceGains) -> WhiteBalanceTemperatureAndTintValues { super.temperatureAndTintValues(for: whiteBalanceGains) }
    override func deviceWhiteBalanceGains(for chromaticityValues: WhiteBalanceChromaticityValues) -> WhiteBalanceGains { super.deviceWhiteBalanceGains(for: chromaticityValues) }
    override func deviceWhiteBalanceGains(for temperatureAndTintValues: WhiteBalanceTemperatureAndTintValues) -> WhiteBalanceGains { super.deviceWhiteBalanceGains(for: temperatureAndTintValues) }
    override var videoZoomFactor: CGFloat {
        get { super.videoZoomFactor }
        set { super.videoZoomFactor = newValue }
    }
    override var minAvailableVideoZoomFactor: CGFloat { super.minAvailableVideoZoomFactor }
    override var maxAvailableVideoZoomFactor: CGFloat { super.maxAvailableVideoZoomFactor }
    override func ramp(toVideoZoomFactor factor: CGFloat, withRate rate: Float) { super.ramp(toVideoZoomFactor: factor, withRate: rate) }
    override func cancelVideoZoomRamp() { super.cancelVideoZoomRamp() }
    override var isRampingVideoZoom: Bool { super.isRampingVideoZoom }
}

/// Overrides the async forms (a class overrides one form of each: they are one method on iOS).
final class DeviceAsyncDouble: AVCaptureDevice, @unchecked Sendable {
    override class func requestAccess(for mediaType: AVMediaType) async -> Bool { await super.requestAccess(for: mediaType) }
    override func setExposureModeCustom(duration: CMTime, iso ISO: Float) async -> CMTime { await super.setExposureModeCustom(duration: duration, iso: ISO) }
    override func setExposureTargetBias(_ bias: Float) async -> CMTime { await super.setExposureTargetBias(bias) }
    override func setFocusModeLocked(lensPosition: Float) async -> CMTime { await super.setFocusModeLocked(lensPosition: lensPosition) }
    override func setWhiteBalanceModeLocked(with whiteBalanceGains: WhiteBalanceGains) async -> CMTime { await super.setWhiteBalanceModeLocked(with: whiteBalanceGains) }
}

/// Overrides every `AVCaptureDevice.Format` member.
final class FormatDouble: AVCaptureDevice.Format, @unchecked Sendable {
    override var formatDescription: CMFormatDescription { super.formatDescription }
    override var videoSupportedFrameRateRanges: [AVFrameRateRange] { super.videoSupportedFrameRateRanges }
    override var mediaType: AVMediaType { super.mediaType }
    override var minISO: Float { super.minISO }
    override var maxISO: Float { super.maxISO }
    override var minExposureDuration: CMTime { super.minExposureDuration }
    override var maxExposureDuration: CMTime { super.maxExposureDuration }
    override var videoFieldOfView: Float { super.videoFieldOfView }
    override var videoMaxZoomFactor: CGFloat { super.videoMaxZoomFactor }
    override var isVideoBinned: Bool { super.isVideoBinned }
    override var isVideoHDRSupported: Bool { super.isVideoHDRSupported }
    override var supportedColorSpaces: [AVCaptureColorSpace] { super.supportedColorSpaces }
    override var supportedMaxPhotoDimensions: [CMVideoDimensions] { super.supportedMaxPhotoDimensions }
    override var isHighestPhotoQualitySupported: Bool { super.isHighestPhotoQualitySupported }
    override var isHighPhotoQualitySupported: Bool { super.isHighPhotoQualitySupported }
    @available(*, deprecated)
    override var highResolutionStillImageDimensions: CMVideoDimensions { super.highResolutionStillImageDimensions }
    override var geometricDistortionCorrectedVideoFieldOfView: Float { super.geometricDistortionCorrectedVideoFieldOfView }
    override var videoZoomFactorUpscaleThreshold: CGFloat { super.videoZoomFactorUpscaleThreshold }
    override var secondaryNativeResolutionZoomFactors: [CGFloat] { super.secondaryNativeResolutionZoomFactors }
    override func isVideoStabilizationModeSupported(_ videoStabilizationMode: AVCaptureVideoStabilizationMode) -> Bool { super.isVideoStabilizationModeSupported(videoStabilizationMode) }
    override var supportedDepthDataFormats: [AVCaptureDevice.Format] { super.supportedDepthDataFormats }
    override var isPortraitEffectSupported: Bool { super.isPortraitEffectSupported }
    override var isCenterStageSupported: Bool { super.isCenterStageSupported }
    override var isStudioLightSupported: Bool { super.isStudioLightSupported }
    override var isGlobalToneMappingSupported: Bool { super.isGlobalToneMappingSupported }
    override var isMultiCamSupported: Bool { super.isMultiCamSupported }
    override var autoFocusSystem: AutoFocusSystem { super.autoFocusSystem }
    override var systemRecommendedVideoZoomRange: ClosedRange<CGFloat>? { super.systemRecommendedVideoZoomRange }
    override var systemRecommendedExposureBiasRange: ClosedRange<Float>? { super.systemRecommendedExposureBiasRange }
    override var supportedVideoZoomRangesForDepthDataDelivery: [ClosedRange<CGFloat>] { super.supportedVideoZoomRangesForDepthDataDelivery }
    override var zoomFactorsOutsideOfVideoZoomRangesForDepthDeliverySupported: Bool { super.zoomFactorsOutsideOfVideoZoomRangesForDepthDeliverySupported }
    @available(*, deprecated)
    override var supportedVideoZoomFactorsForDepthDataDelivery: [CGFloat] { super.supportedVideoZoomFactorsForDepthDataDelivery }
    override var isPortraitEffectsMatteStillImageDeliverySupported: Bool { super.isPortraitEffectsMatteStillImageDeliverySupported }
    override var isAutoVideoFrameRateSupported: Bool { super.isAutoVideoFrameRateSupported }
    override var unsupportedCaptureOutputClasses: [AnyClass] { super.unsupportedCaptureOutputClasses }
    override var videoFrameRateRangeForPortraitEffect: AVFrameRateRange? { super.videoFrameRateRangeForPortraitEffect }
    override var videoMinZoomFactorForCenterStage: CGFloat { super.videoMinZoomFactorForCenterStage }
    override var videoMaxZoomFactorForCenterStage: CGFloat { super.videoMaxZoomFactorForCenterStage }
    override var videoFrameRateRangeForCenterStage: AVFrameRateRange? { super.videoFrameRateRangeForCenterStage }
    override var videoFrameRateRangeForStudioLight: AVFrameRateRange? { super.videoFrameRateRangeForStudioLight }
    override var isSpatialVideoCaptureSupported: Bool { super.isSpatialVideoCaptureSupported }
    override var isBackgroundReplacementSupported: Bool { super.isBackgroundReplacementSupported }
    override var videoFrameRateRangeForBackgroundReplacement: AVFrameRateRange? { super.videoFrameRateRangeForBackgroundReplacement }
    @available(*, deprecated)
    override var isVideoStabilizationSupported: Bool { super.isVideoStabilizationSupported }
    @available(*, deprecated)
    override var videoMinZoomFactorForDepthDataDelivery: CGFloat { super.videoMinZoomFactorForDepthDataDelivery }
    @available(*, deprecated)
    override var videoMaxZoomFactorForDepthDataDelivery: CGFloat { super.videoMaxZoomFactorForDepthDataDelivery }
    override var reactionEffectsSupported: Bool { super.reactionEffectsSupported }
    override var videoFrameRateRangeForReactionEffectsInProgress: AVFrameRateRange? { super.videoFrameRateRangeForReactionEffectsInProgress }
}

/// Overrides the discovery session's members.
final class DiscoverySessionDouble: AVCaptureDevice.DiscoverySession, @unchecked Sendable {
    override var devices: [AVCaptureDevice] { super.devices }
    override var supportedMultiCamDeviceSets: [Set<AVCaptureDevice>] { super.supportedMultiCamDeviceSets }
}

/// Overrides the rotation coordinator's members.
final class RotationCoordinatorDouble: AVCaptureDevice.RotationCoordinator, @unchecked Sendable {
    override var videoRotationAngleForHorizonLevelCapture: CGFloat { super.videoRotationAngleForHorizonLevelCapture }
    override var videoRotationAngleForHorizonLevelPreview: CGFloat { super.videoRotationAngleForHorizonLevelPreview }
    override var device: AVCaptureDevice? { super.device }
    override var previewLayer: CALayer? { super.previewLayer }
}

/// Overrides the system pressure state's members.
final class SystemPressureStateDouble: AVCaptureDevice.SystemPressureState, @unchecked Sendable {
    override var level: Level { super.level }
    override var factors: Factors { super.factors }
}

/// Overrides every `AVFrameRateRange` member.
final class FrameRateRangeDouble: AVFrameRateRange, @unchecked Sendable {
    override var minFrameRate: Float64 { super.minFrameRate }
    override var maxFrameRate: Float64 { super.maxFrameRate }
    override var minFrameDuration: CMTime { super.minFrameDuration }
    override var maxFrameDuration: CMTime { super.maxFrameDuration }
}
