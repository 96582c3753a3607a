// AVCaptureDevice.h (iOS 18 SDK), spelled as iOS code spells it (microphone modes and the
// device's depth formats at the end).
import AVFoundation
import CoreMedia
import Foundation
import Testing

/// Discovery, identity, configuration lock, formats and frame rates; compiled, never called.
func spellAVCaptureDeviceBasics() async throws {
    let any: AVCaptureDevice? = AVCaptureDevice.default(for: .video)
    let typed: AVCaptureDevice? = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)
    let byID: AVCaptureDevice? = AVCaptureDevice(uniqueID: "sim:back-wide")
    let discovery = AVCaptureDevice.DiscoverySession(
        deviceTypes: [.builtInWideAngleCamera, .builtInUltraWideCamera, .builtInTelephotoCamera, .builtInDualCamera,
            .builtInDualWideCamera, .builtInTripleCamera, .builtInTrueDepthCamera, .builtInLiDARDepthCamera, .continuityCamera,
            .external, .microphone],
        mediaType: .video, position: .unspecified)
    let found: [AVCaptureDevice] = discovery.devices
    let sets: [Set<AVCaptureDevice>] = discovery.supportedMultiCamDeviceSets
    guard let device = typed ?? any ?? byID else { return }
    let identity: (String, String, String, String) = (device.uniqueID, device.modelID, device.localizedName, device.manufacturer)
    let has: Bool = device.hasMediaType(.video)
    let kind: (AVCaptureDevice.DeviceType, AVCaptureDevice.Position) = (device.deviceType, device.position)
    let positions: [AVCaptureDevice.Position] = [.unspecified, .back, .front]
    let state: (Bool, Bool) = (device.isConnected, device.isSuspended)
    try device.lockForConfiguration()
    device.unlockForConfiguration()
    let presets: Bool = device.supportsSessionPreset(.hd1280x720)
    let formats: [AVCaptureDevice.Format] = device.formats
    device.activeFormat = formats[0]
    let active: AVCaptureDevice.Format = device.activeFormat
    device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 30)
    device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 30)
    let durations: (CMTime, CMTime) = (device.activeVideoMinFrameDuration, device.activeVideoMaxFrameDuration)
    device.isAutoVideoFrameRateEnabled = false
    let autoRate: Bool = device.isAutoVideoFrameRateEnabled
    let status: AVAuthorizationStatus = AVCaptureDevice.authorizationStatus(for: .video)
    let statuses: [AVAuthorizationStatus] = [.notDetermined, .restricted, .denied, .authorized]
    AVCaptureDevice.requestAccess(for: .video) { (granted: Bool) in _ = granted }
    let granted: Bool = await AVCaptureDevice.requestAccess(for: .video)
    let names: [NSNotification.Name] = [
        AVCaptureDevice.wasConnectedNotification, AVCaptureDevice.wasDisconnectedNotification,
        AVCaptureDevice.subjectAreaDidChangeNotification, .AVCaptureDeviceWasConnected, .AVCaptureDeviceWasDisconnected,
        .AVCaptureDeviceSubjectAreaDidChange,
    ]
    let preferred: (AVCaptureDevice?, AVCaptureDevice?) = (AVCaptureDevice.systemPreferredCamera, AVCaptureDevice.userPreferredCamera)
    AVCaptureDevice.userPreferredCamera = device
    _ = (found, sets, identity, has, kind, positions, state, presets, active, durations, autoRate, status, statuses, granted)
    _ = (names, preferred)
}

/// The deprecated discovery class methods; compiled, never called.
@available(*, deprecated)
func spellAVCaptureDeviceDeprecatedDiscovery() {
    let all: [AVCaptureDevice] = AVCaptureDevice.devices()
    let video: [AVCaptureDevice] = AVCaptureDevice.devices(for: .video)
    _ = (all, video)
}

/// Focus, exposure, white balance, zoom, torch and flash; compiled, never called.
func spellAVCaptureDeviceControls(_ device: AVCaptureDevice) {
    // Focus.
    let focusModes: [AVCaptureDevice.FocusMode] = [.locked, .autoFocus, .continuousAutoFocus]
    let focusSupport: (Bool, Bool, Bool, Bool, Bool) = (
        device.isFocusModeSupported(.autoFocus), device.isLockingFocusWithCustomLensPositionSupported,
        device.isFocusPointOfInterestSupported, device.isAutoFocusRangeRestrictionSupported, device.isSmoothAutoFocusSupported)
    device.focusMode = .continuousAutoFocus
    device.focusPointOfInterest = CGPoint(x: 0.5, y: 0.5)
    device.autoFocusRangeRestriction = .near
    let restrictions: [AVCaptureDevice.AutoFocusRangeRestriction] = [.none, .near, .far]
    device.isSmoothAutoFocusEnabled = true
    device.automaticallyAdjustsFaceDrivenAutoFocusEnabled = false
    device.isFaceDrivenAutoFocusEnabled = false
    let focus: (AVCaptureDevice.FocusMode, CGPoint, Bool, Float, Float, Int, Bool, Bool) = (
        device.focusMode, device.focusPointOfInterest, device.isAdjustingFocus, device.lensPosition, AVCaptureDevice.currentLensPosition,
        device.minimumFocusDistance, device.automaticallyAdjustsFaceDrivenAutoFocusEnabled, device.isFaceDrivenAutoFocusEnabled)
    device.setFocusModeLocked(lensPosition: 0.5) { (time: CMTime) in _ = time }
    device.setFocusModeLocked(lensPosition: AVCaptureDevice.currentLensPosition, completionHandler: nil)
    // Exposure.
    let exposureModes: [AVCaptureDevice.ExposureMode] = [.locked, .autoExpose, .continuousAutoExposure, .custom]
    device.exposureMode = .continuousAutoExposure
    device.exposurePointOfInterest = CGPoint(x: 0.5, y: 0.5)
    device.automaticallyAdjustsFaceDrivenAutoExposureEnabled = false
    device.isFaceDrivenAutoExposureEnabled = false
    device.activeMaxExposureDuration = .invalid
    let exposure: (Bool, Bool, CGPoint, Bool, Float, CMTime, Float, Float, Float, Float, Float, CMTime) = (
        device.isExposureModeSupported(.custom), device.isExposurePointOfInterestSupported, device.exposurePointOfInterest,
        device.isAdjustingExposure, device.lensAperture, device.exposureDuration, device.iso, device.exposureTargetOffset,
        device.exposureTargetBias, device.minExposureTargetBias, device.maxExposureTargetBias, device.activeMaxExposureDuration)
    let current: (CMTime, Float, Float) = (AVCaptureDevice.currentExposureDuration, AVCaptureDevice.currentISO, AVCaptureDevice.currentExposureTargetBias)
    device.setExposureModeCustom(duration: AVCaptureDevice.currentExposureDuration, iso: AVCaptureDevice.currentISO) { (time: CMTime) in _ = time }
    device.setExposureTargetBias(0.5, completionHandler: nil)
    device.isGlobalToneMappingEnabled = false
    let toneMapping: Bool = device.isGlobalToneMappingEnabled
    // White balance.
    let wbModes: [AVCaptureDevice.WhiteBalanceMode] = [.locked, .autoWhiteBalance, .continuousAutoWhiteBalance]
    device.whiteBalanceMode = .continuousAutoWhiteBalance
    let gains: AVCaptureDevice.WhiteBalanceGains = device.deviceWhiteBalanceGains
    let gainFields: (Float, Float, Float) = (gains.redGain, gains.greenGain, gains.blueGain)
    let wb: (Bool, Bool, Bool, AVCaptureDevice.WhiteBalanceGains, Float, AVCaptureDevice.WhiteBalanceGains) = (
        device.isWhiteBalanceModeSupported(.locked), device.isLockingWhiteBalanceWithCustomDeviceGainsSupported, device.isAdjustingWhiteBalance,
        device.grayWorldDeviceWhiteBalanceGains, device.maxWhiteBalanceGain, AVCaptureDevice.currentWhiteBalanceGains)
    device.setWhiteBalanceModeLocked(with: gains) { (time: CMTime) in _ = time }
    let chromaticity: AVCaptureDevice.WhiteBalanceChromaticityValues = device.chromaticityValues(for: gains)
    let xy: (Float, Float) = (chromaticity.x, chromaticity.y)
    let fromChromaticity: AVCaptureDevice.WhiteBalanceGains = device.deviceWhiteBalanceGains(for: chromaticity)
    let temperature: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues = device.temperatureAndTintValues(for: gains)
    let tt: (Float, Float) = (temperature.temperature, temperature.tint)
    let fromTemperature: AVCaptureDevice.WhiteBalanceGains = device.deviceWhiteBalanceGains(
        for: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: 5000, tint: 0))
    // Subject area, low light, HDR, colour space, distortion correction.
    device.isSubjectAreaChangeMonitoringEnabled = true
    device.automaticallyEnablesLowLightBoostWhenAvailable = true
    device.automaticallyAdjustsVideoHDREnabled = false
    device.isVideoHDREnabled = false
    device.activeColorSpace = .sRGB
    let spaces: [AVCaptureColorSpace] = [.sRGB, .P3_D65, .HLG_BT2020, .appleLog, .appleLog2]
    device.isGeometricDistortionCorrectionEnabled = false
    let misc: (Bool, Bool, Bool, Bool, Bool, Bool, AVCaptureColorSpace, Bool, Bool) = (
        device.isSubjectAreaChangeMonitoringEnabled, device.isLowLightBoostSupported, device.isLowLightBoostEnabled,
        device.automaticallyEnablesLowLightBoostWhenAvailable, device.automaticallyAdjustsVideoHDREnabled, device.isVideoHDREnabled,
        device.activeColorSpace, device.isGeometricDistortionCorrectionSupported, device.isGeometricDistortionCorrectionEnabled)
    // Zoom.
    device.videoZoomFactor = 2
    device.ramp(toVideoZoomFactor: 3, withRate: 2)
    device.cancelVideoZoomRamp()
    let zoom: (CGFloat, Bool, CGFloat, CGFloat, CGFloat) = (
        device.videoZoomFactor, device.isRampingVideoZoom, device.displayVideoZoomFactorMultiplier, device.minAvailableVideoZoomFactor,
        device.maxAvailableVideoZoomFactor)
    // Torch and flash.
    let torchModes: [AVCaptureDevice.TorchMode] = [.off, .on, .auto]
    device.torchMode = .off
    try? device.setTorchModeOn(level: AVCaptureDevice.maxAvailableTorchLevel)
    let torch: (Bool, Bool, Bool, Float, Bool, AVCaptureDevice.TorchMode) = (
        device.hasTorch, device.isTorchAvailable, device.isTorchActive, device.torchLevel, device.isTorchModeSupported(.on), device.torchMode)
    let flashModes: [AVCaptureDevice.FlashMode] = [.off, .on, .auto]
    let hasFlash: Bool = device.hasFlash
    _ = (focusModes, focusSupport, restrictions, focus, exposureModes, exposure, current, toneMapping, wbModes, gainFields, wb, xy)
    _ = (fromChromaticity, tt, fromTemperature, spaces, misc, zoom, torchModes, torch, flashModes, hasFlash)
}

/// Virtual devices, system pressure, rotation, and the camera effects Linux lacks; compiled, never called.
func spellAVCaptureDeviceSystem(_ device: AVCaptureDevice, _ layer: AVCaptureVideoPreviewLayer) throws {
    let virtual: (Bool, [AVCaptureDevice], [NSNumber], AVCaptureDevice?) = (
        device.isVirtualDevice, device.constituentDevices, device.virtualDeviceSwitchOverVideoZoomFactors, device.activePrimaryConstituent)
    let behaviours: [AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior] = [.unsupported, .auto, .restricted, .locked]
    let conditions: AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions = [
        .videoZoomChanged, .focusModeChanged, .exposureModeChanged,
    ]
    device.setPrimaryConstituentDeviceSwitchingBehavior(.restricted, restrictedSwitchingBehaviorConditions: conditions)
    let switching: (
        AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior, AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions,
        AVCaptureDevice.PrimaryConstituentDeviceSwitchingBehavior, AVCaptureDevice.PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions
    ) = (
        device.primaryConstituentDeviceSwitchingBehavior, device.primaryConstituentDeviceRestrictedSwitchingBehaviorConditions,
        device.activePrimaryConstituentDeviceSwitchingBehavior, device.activePrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions)
    let fallback: ([AVCaptureDevice], [AVCaptureDevice]) = (device.supportedFallbackPrimaryConstituentDevices, device.fallbackPrimaryConstituentDevices)
    device.fallbackPrimaryConstituentDevices = []
    let pressure: AVCaptureDevice.SystemPressureState = device.systemPressureState
    let levels: [AVCaptureDevice.SystemPressureState.Level] = [.nominal, .fair, .serious, .critical, .shutdown]
    let factors: AVCaptureDevice.SystemPressureState.Factors = [.systemTemperature, .peakPower, .depthModuleTemperature, .cameraTemperature]
    let pressureFields: (AVCaptureDevice.SystemPressureState.Level, AVCaptureDevice.SystemPressureState.Factors) = (pressure.level, pressure.factors)
    let coordinator = AVCaptureDevice.RotationCoordinator(device: device, previewLayer: layer)
    let angles: (CGFloat, CGFloat, AVCaptureDevice?, CALayer?) = (
        coordinator.videoRotationAngleForHorizonLevelPreview, coordinator.videoRotationAngleForHorizonLevelCapture, coordinator.device,
        coordinator.previewLayer)
    // Camera effects a Linux camera lacks (iOS 15–18): all answered as unsupported.
    let centerStage: (AVCaptureDevice.CenterStageControlMode, Bool, Bool, Bool, CGRect) = (
        AVCaptureDevice.centerStageControlMode, AVCaptureDevice.isCenterStageEnabled, device.isCenterStageActive,
        device.isCenterStageRectOfInterestSupported, device.centerStageRectOfInterest)
    let controlModes: [AVCaptureDevice.CenterStageControlMode] = [.user, .app, .cooperative]
    let effects: (Bool, Bool, Bool, Bool, Bool, Bool) = (
        AVCaptureDevice.isPortraitEffectEnabled, device.isPortraitEffectActive, AVCaptureDevice.isStudioLightEnabled, device.isStudioLightActive,
        AVCaptureDevice.isBackgroundReplacementEnabled, device.isBackgroundReplacementActive)
    AVCaptureDevice.centerStageControlMode = .cooperative
    AVCaptureDevice.isCenterStageEnabled = true
    device.centerStageRectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
    let matrix: Data? = AVCaptureDevice.extrinsicMatrix(from: device, to: device)
    _ = (virtual, behaviours, switching, fallback, levels, factors, pressureFields, angles, centerStage, controlModes, effects, matrix)
}

/// The deprecated members apps still call; compiled, never called.
@available(*, deprecated)
func spellAVCaptureDeviceDeprecated(_ device: AVCaptureDevice) {
    let flash: (Bool, Bool, Bool, AVCaptureDevice.FlashMode) = (
        device.isFlashAvailable, device.isFlashActive, device.isFlashModeSupported(.auto), device.flashMode)
    device.flashMode = .off
    let dual: CGFloat = device.dualCameraSwitchOverVideoZoomFactor
    _ = (flash, dual)
}

/// AVCaptureDevice.Format and AVFrameRateRange; compiled, never called.
func spellAVCaptureDeviceFormat(_ format: AVCaptureDevice.Format) {
    let basics: (AVMediaType, CMFormatDescription, [AVFrameRateRange], Float, Bool) = (
        format.mediaType, format.formatDescription, format.videoSupportedFrameRateRanges, format.videoFieldOfView, format.isVideoBinned)
    let range: AVFrameRateRange = format.videoSupportedFrameRateRanges[0]
    let rangeFields: (Float64, Float64, CMTime, CMTime) = (range.minFrameRate, range.maxFrameRate, range.minFrameDuration, range.maxFrameDuration)
    let stabilization: Bool = format.isVideoStabilizationModeSupported(.cinematicExtended)
    let modes: [AVCaptureVideoStabilizationMode] = [.off, .standard, .cinematic, .cinematicExtended, .previewOptimized, .cinematicExtendedEnhanced, .lowLatency, .auto]
    let zoom: (CGFloat, CGFloat, [CGFloat]) = (format.videoMaxZoomFactor, format.videoZoomFactorUpscaleThreshold, format.secondaryNativeResolutionZoomFactors)
    let recommended: (ClosedRange<CGFloat>?, ClosedRange<Float>?) = (format.systemRecommendedVideoZoomRange, format.systemRecommendedExposureBiasRange)
    let depthZoom: ([ClosedRange<CGFloat>], Bool) = (
        format.supportedVideoZoomRangesForDepthDataDelivery, format.zoomFactorsOutsideOfVideoZoomRangesForDepthDeliverySupported)
    let exposure: (CMTime, CMTime, Float, Float) = (format.minExposureDuration, format.maxExposureDuration, format.minISO, format.maxISO)
    let flags: (Bool, Bool, Bool, Bool, Bool, Bool) = (
        format.isGlobalToneMappingSupported, format.isVideoHDRSupported, format.isHighPhotoQualitySupported, format.isHighestPhotoQualitySupported,
        format.isMultiCamSupported, format.isAutoVideoFrameRateSupported)
    let photo: [CMVideoDimensions] = format.supportedMaxPhotoDimensions
    let focus: AVCaptureDevice.Format.AutoFocusSystem = format.autoFocusSystem
    let systems: [AVCaptureDevice.Format.AutoFocusSystem] = [.none, .contrastDetection, .phaseDetection]
    let colorSpaces: [AVCaptureColorSpace] = format.supportedColorSpaces
    let fov: Float = format.geometricDistortionCorrectedVideoFieldOfView
    let unsupported: [AnyClass] = format.unsupportedCaptureOutputClasses
    let effects: (Bool, AVFrameRateRange?, Bool, CGFloat, CGFloat, AVFrameRateRange?, Bool, AVFrameRateRange?, Bool, Bool, AVFrameRateRange?) = (
        format.isPortraitEffectSupported, format.videoFrameRateRangeForPortraitEffect, format.isCenterStageSupported,
        format.videoMinZoomFactorForCenterStage, format.videoMaxZoomFactorForCenterStage, format.videoFrameRateRangeForCenterStage,
        format.isStudioLightSupported, format.videoFrameRateRangeForStudioLight, format.isSpatialVideoCaptureSupported,
        format.isBackgroundReplacementSupported, format.videoFrameRateRangeForBackgroundReplacement)
    _ = (recommended, depthZoom)
    _ = (basics, rangeFields, stabilization, modes, zoom, exposure, flags, photo, focus, systems, colorSpaces, fov, unsupported, effects)
}

/// The deprecated format members; compiled, never called.
@available(*, deprecated)
func spellAVCaptureDeviceFormatDeprecated(_ format: AVCaptureDevice.Format) {
    let still: CMVideoDimensions = format.highResolutionStillImageDimensions
    let stabilization: Bool = format.isVideoStabilizationSupported
    _ = (still, stabilization)
}

@Suite("AVCaptureDevice spelling", .serialized)
struct AVCaptureDeviceSpellingTests {
    @Test("a simulated camera answers the effects it lacks as an iPhone without them")
    func effectsAreUnsupported() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(!device.isCenterStageActive && !device.isPortraitEffectActive && !device.isStudioLightActive)
        #expect(!device.isBackgroundReplacementActive && !device.isCenterStageRectOfInterestSupported)
        #expect(device.formats.allSatisfy { !$0.isCenterStageSupported && !$0.isPortraitEffectSupported && !$0.isStudioLightSupported })
        #expect(device.formats.allSatisfy { !$0.isBackgroundReplacementSupported && $0.videoFrameRateRangeForBackgroundReplacement == nil })
        #expect(!AVCaptureDevice.isCenterStageEnabled && !AVCaptureDevice.isPortraitEffectEnabled && !AVCaptureDevice.isStudioLightEnabled)
        #expect(AVCaptureDevice.extrinsicMatrix(from: device, to: device) == nil)
        #expect(device.formats.allSatisfy { $0.systemRecommendedVideoZoomRange == nil && $0.systemRecommendedExposureBiasRange == nil })
    }

    @Test("Center Stage: enabled only when the app controls it, never active; rect of interest is the whole picture")
    func centerStageRules() {
        #expect(AVCaptureDevice.centerStageControlMode == .user)
        #expect(throws: AVCaptureException.self) { try AVCaptureDevice.setCenterStageEnabled(true) }
        AVCaptureDevice.centerStageControlMode = .app
        defer {
            AVCaptureDevice.isCenterStageEnabled = false
            AVCaptureDevice.centerStageControlMode = .user
        }
        AVCaptureDevice.isCenterStageEnabled = true
        #expect(AVCaptureDevice.isCenterStageEnabled)
        let device = AVCaptureDevice(uniqueID: "sim:front-wide")
        #expect(device?.isCenterStageActive == false)
        #expect(device?.centerStageRectOfInterest == CGRect(x: 0, y: 0, width: 1, height: 1))
    }

    @Test("face-driven focus and exposure default on; set once the device no longer adjusts them itself")
    func faceDrivenSettings() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(device.automaticallyAdjustsFaceDrivenAutoFocusEnabled && device.isFaceDrivenAutoFocusEnabled)
        #expect(device.automaticallyAdjustsFaceDrivenAutoExposureEnabled && device.isFaceDrivenAutoExposureEnabled)
        try device.lockForConfiguration()
        defer {
            device.automaticallyAdjustsFaceDrivenAutoFocusEnabled = true
            device.automaticallyAdjustsFaceDrivenAutoExposureEnabled = true
            device.unlockForConfiguration()
        }
        device.automaticallyAdjustsFaceDrivenAutoFocusEnabled = false
        device.isFaceDrivenAutoFocusEnabled = false
        device.automaticallyAdjustsFaceDrivenAutoExposureEnabled = false
        device.isFaceDrivenAutoExposureEnabled = false
        #expect(!device.isFaceDrivenAutoFocusEnabled && !device.isFaceDrivenAutoExposureEnabled)
        device.isFaceDrivenAutoFocusEnabled = true
        device.isFaceDrivenAutoExposureEnabled = true
        // Switches no Linux format supports may be turned off, never on.
        device.isGlobalToneMappingEnabled = false
        device.isGeometricDistortionCorrectionEnabled = false
        device.isAutoVideoFrameRateEnabled = false
        #expect(!device.isGlobalToneMappingEnabled && !device.isGeometricDistortionCorrectionEnabled && !device.isAutoVideoFrameRateEnabled)
    }

    @Test("setting isFaceDrivenAutoFocusEnabled while the device adjusts it raises NSInvalidArgumentException")
    func faceDrivenWhileAutomaticRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            guard let device = AVCaptureDevice(uniqueID: "sim:back-wide") else { return }
            try? device.lockForConfiguration()
            device.isFaceDrivenAutoFocusEnabled = false
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setFaceDrivenAutoFocusEnabled:] May not be set while automaticallyAdjustsFaceDrivenAutoFocusEnabled is YES'"))
    }
}

/// Declarations found walking AVCaptureDevice.h line by line (system UI, spatial capture,
/// Continuity and Desk View cameras, depth-format additions); compiled, never called.
func spellAVCaptureDeviceHeaderWalk(_ device: AVCaptureDevice, _ format: AVCaptureDevice.Format) {
    let interfaces: [AVCaptureDevice.SystemUserInterface] = [.videoEffects, .microphoneModes]
    AVCaptureDevice.showSystemUserInterface(.videoEffects)
    let reasons: Set<AVSpatialCaptureDiscomfortReason> = device.spatialCaptureDiscomfortReasons
    let named: [AVSpatialCaptureDiscomfortReason] = [.notEnoughLight, .subjectTooClose]
    let continuity: (Bool, AVCaptureDevice?) = (device.isContinuityCamera, device.companionDeskViewCamera)
    let matte: Bool = format.isPortraitEffectsMatteStillImageDeliverySupported
    _ = (interfaces, reasons, named, continuity, matte)
}

/// Deprecated format members found in the walk; compiled, never called.
@available(*, deprecated)
func spellAVCaptureDeviceFormatDeprecatedWalk(_ format: AVCaptureDevice.Format) {
    let depthZoom: [CGFloat] = format.supportedVideoZoomFactorsForDepthDataDelivery
    _ = depthZoom
}

/// Microphone modes and device depth formats (the header walk's additions); compiled, never called.
func spellAVCaptureDeviceMicrophoneAndDepth(_ device: AVCaptureDevice) throws {
    let preferred: AVCaptureDevice.MicrophoneMode = AVCaptureDevice.preferredMicrophoneMode
    let active: AVCaptureDevice.MicrophoneMode = AVCaptureDevice.activeMicrophoneMode
    let modes: [AVCaptureDevice.MicrophoneMode] = [.standard, .wideSpectrum, .voiceIsolation]
    try device.lockForConfiguration()
    let depthFormat: AVCaptureDevice.Format? = device.activeDepthDataFormat
    device.activeDepthDataFormat = device.activeFormat.supportedDepthDataFormats.first
    let depthDuration: CMTime = device.activeDepthDataMinFrameDuration
    device.activeDepthDataMinFrameDuration = .invalid
    device.unlockForConfiguration()
    _ = (preferred, active, modes, depthFormat, depthDuration)
}

/// The deprecated depth zoom factors; compiled, never called.
@available(*, deprecated)
func spellAVCaptureDeviceFormatDepthZoom(_ format: AVCaptureDevice.Format) {
    let range: (CGFloat, CGFloat) = (format.videoMinZoomFactorForDepthDataDelivery, format.videoMaxZoomFactorForDepthDataDelivery)
    _ = range
}

@Suite("AVCaptureDevice microphone modes and depth")
struct AVCaptureDeviceMicrophoneAndDepthSpellingTests {
    @Test("no route does voice isolation and no camera delivers depth, as on hardware without them")
    func answers() throws {
        #expect(AVCaptureDevice.activeMicrophoneMode == .standard && AVCaptureDevice.preferredMicrophoneMode == .standard)
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        #expect(device.activeDepthDataFormat == nil && device.activeFormat.supportedDepthDataFormats.isEmpty)
        #expect(device.activeDepthDataMinFrameDuration == .invalid)
    }
}
