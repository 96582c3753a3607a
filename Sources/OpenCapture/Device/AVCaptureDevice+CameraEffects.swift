import Foundation
import Synchronization

/// The system camera effects of iOS 14.5–18 (Center Stage, Portrait, Studio Light,
/// background replacement) and the image-processing switches no Linux camera has (global
/// tone mapping, geometric distortion correction, automatic frame rate), answered as an
/// iPhone without them: no format supports them, so they are never active; turning one on
/// raises `NSInvalidArgumentException` as Apple does where it is unsupported, and turning
/// it off is allowed. The effects an iOS user toggles in Control Center read false.
extension AVCaptureDevice {
    /// Who controls Center Stage: the user, the app, or both (iOS 14.5).
    public enum CenterStageControlMode: Int, Sendable {
        case user = 0
        case app = 1
        case cooperative = 2
    }

    /// The app-wide Center Stage settings (class properties on iOS).
    private static let centerStage = Mutex<(mode: CenterStageControlMode, enabled: Bool)>((.user, false))

    class var centerStageControlModeBacking: CenterStageControlMode {
        get { centerStage.withLock { $0.mode } }
        set { centerStage.withLock { $0.mode = newValue } }
    }

    class var isCenterStageEnabledBacking: Bool {
        get { centerStage.withLock { $0.enabled } }
        set { enforce { try setCenterStageEnabled(newValue) } }
    }

    /// The checked form of setting `isCenterStageEnabled` (Linux addition).
    public class func setCenterStageEnabled(_ enabled: Bool) throws(AVCaptureException) {
        guard centerStageControlMode != .user else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureDevice", "setCenterStageEnabled:", "centerStageEnabled may only be set when centerStageControlMode is app or cooperative"))
        }
        centerStage.withLock { $0.enabled = enabled }
    }

    var isCenterStageActiveBacking: Bool { activeFormat.isCenterStageSupported && AVCaptureDevice.isCenterStageEnabled }

    var isCenterStageRectOfInterestSupportedBacking: Bool { false }

    var centerStageRectOfInterestBacking: CGRect {
        get { CGRect(x: 0, y: 0, width: 1, height: 1) }
        set {
            enforce {
                guard newValue == CGRect(x: 0, y: 0, width: 1, height: 1) || isCenterStageRectOfInterestSupported else {
                    throw AVCaptureException(.invalidArgument, selectorReason(
                        "AVCaptureDevice", "setCenterStageRectOfInterest:", "centerStageRectOfInterest is not supported - check isCenterStageRectOfInterestSupported"))
                }
            }
        }
    }

    class var isPortraitEffectEnabledBacking: Bool { false }
    var isPortraitEffectActiveBacking: Bool { false }
    class var isStudioLightEnabledBacking: Bool { false }
    var isStudioLightActiveBacking: Bool { false }
    class var isBackgroundReplacementEnabledBacking: Bool { false }
    var isBackgroundReplacementActiveBacking: Bool { false }

    class func extrinsicMatrixBacking(from fromDevice: AVCaptureDevice, to toDevice: AVCaptureDevice) -> Data? { nil }

    var isGlobalToneMappingEnabledBacking: Bool {
        get { false }
        set { enforce { try requireUnsupportedOff(newValue, supported: activeFormat.isGlobalToneMappingSupported, "setGlobalToneMappingEnabled:", "globalToneMappingEnabled") } }
    }

    var isGeometricDistortionCorrectionSupportedBacking: Bool { false }
    var isGeometricDistortionCorrectionEnabledBacking: Bool {
        get { false }
        set { enforce { try requireUnsupportedOff(newValue, supported: isGeometricDistortionCorrectionSupported, "setGeometricDistortionCorrectionEnabled:", "geometricDistortionCorrectionEnabled") } }
    }

    var isAutoVideoFrameRateEnabledBacking: Bool {
        get { false }
        set { enforce { try requireUnsupportedOff(newValue, supported: activeFormat.isAutoVideoFrameRateSupported, "setAutoVideoFrameRateEnabled:", "autoVideoFrameRateEnabled") } }
    }

    @available(*, deprecated, renamed: "virtualDeviceSwitchOverVideoZoomFactors")
    var dualCameraSwitchOverVideoZoomFactorBacking: CGFloat {
        guard deviceType == .builtInDualCamera, let first = virtualDeviceSwitchOverVideoZoomFactors.first else { return 1 }
        return CGFloat(first.doubleValue)
    }

    /// Turning an unsupported switch on raises; off is allowed. Both need the lock.
    private func requireUnsupportedOff(_ value: Bool, supported: Bool, _ selector: String, _ name: String) throws(AVCaptureException) {
        try changeProperty(selector, supported: !value || supported, unsupported: "\(name) is not supported by the activeFormat") { nil }
    }
}

extension AVCaptureDevice.Format {
    var systemRecommendedVideoZoomRangeBacking: ClosedRange<CGFloat>? { nil }
    var systemRecommendedExposureBiasRangeBacking: ClosedRange<Float>? { nil }
    var supportedVideoZoomRangesForDepthDataDeliveryBacking: [ClosedRange<CGFloat>] { [] }
    var zoomFactorsOutsideOfVideoZoomRangesForDepthDeliverySupportedBacking: Bool { false }
    @available(*, deprecated, renamed: "supportedVideoZoomRangesForDepthDataDelivery")
    var supportedVideoZoomFactorsForDepthDataDeliveryBacking: [CGFloat] { [] }
    var isPortraitEffectsMatteStillImageDeliverySupportedBacking: Bool { false }
    var isAutoVideoFrameRateSupportedBacking: Bool { false }
    var unsupportedCaptureOutputClassesBacking: [AnyClass] { [] }
    var videoFrameRateRangeForPortraitEffectBacking: AVFrameRateRange? { nil }
    var videoMinZoomFactorForCenterStageBacking: CGFloat { 1 }
    var videoMaxZoomFactorForCenterStageBacking: CGFloat { videoMaxZoomFactor }
    var videoFrameRateRangeForCenterStageBacking: AVFrameRateRange? { nil }
    var videoFrameRateRangeForStudioLightBacking: AVFrameRateRange? { nil }
    var isSpatialVideoCaptureSupportedBacking: Bool { false }
    var isBackgroundReplacementSupportedBacking: Bool { false }
    var videoFrameRateRangeForBackgroundReplacementBacking: AVFrameRateRange? { nil }
    @available(*, deprecated, message: "Use isVideoStabilizationModeSupported(_:)")
    var isVideoStabilizationSupportedBacking: Bool {
        [.standard, .cinematic, .cinematicExtended, .previewOptimized, .cinematicExtendedEnhanced].contains { isVideoStabilizationModeSupported($0) }
    }
}
