import Foundation
import Synchronization

/// The system camera effects of iOS 14.5–18 (Center Stage, Portrait, Studio Light,
/// background replacement) and the image-processing switches no Linux camera has (global
/// tone mapping, geometric distortion correction, automatic frame rate), answered as an
/// iPhone without them: no format supports them, so they are never active. Turning one on
/// raises what Apple's header names for it (automatic frame rate `NSInvalidArgumentException`,
/// global tone mapping `NSGenericException`, a Center Stage rectangle of interest
/// `NSInvalidArgumentException`); geometric distortion correction has no such sentence and
/// stays off. Turning one off is allowed. The effects an iOS user toggles in Control Center
/// read false. docs/avfoundation-api.md section 9 lists each rule with its sentence.
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
        set { enforce { try setCenterStageRectOfInterest(newValue) } }
    }

    /// The checked form of setting `centerStageRectOfInterest` (Linux addition). Apple's
    /// header: the lock (`NSGenericException`), then `NSInvalidArgumentException` "if none of
    /// the AVCaptureDeviceFormats supported by the receiver support CenterStage" — true of
    /// every format here, so after the lock check it always raises, as on such an iPhone.
    public func setCenterStageRectOfInterest(_ rect: CGRect) throws(AVCaptureException) {
        let selector = "setCenterStageRectOfInterest:"
        try changeProperty(selector) { () throws(AVCaptureException) -> ControlChange? in
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureDevice", selector, "None of the receiver's formats supports Center Stage - see AVCaptureDeviceFormat.isCenterStageSupported"))
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
        set { enforce { try setGlobalToneMappingEnabled(newValue) } }
    }

    /// The checked form of setting `isGlobalToneMappingEnabled` (Linux addition). Apple's
    /// header: "globalToneMappingEnabled may only be set to YES if the receiver's
    /// activeFormat.isGlobalToneMappingSupported property returns YES, otherwise an
    /// NSGenericException is thrown" (generic, not invalid argument); the lock first.
    public func setGlobalToneMappingEnabled(_ enabled: Bool) throws(AVCaptureException) {
        let selector = "setGlobalToneMappingEnabled:"
        try changeProperty(selector) { () throws(AVCaptureException) -> ControlChange? in
            guard !enabled || activeFormat.isGlobalToneMappingSupported else {
                throw AVCaptureException(.generic, selectorReason(
                    "AVCaptureDevice", selector, "globalToneMappingEnabled may only be set to YES if activeFormat.isGlobalToneMappingSupported is YES"))
            }
            return nil
        }
    }

    var isGeometricDistortionCorrectionSupportedBacking: Bool { false }
    var isGeometricDistortionCorrectionEnabledBacking: Bool {
        get { false }
        set { enforce { try setGeometricDistortionCorrectionEnabled(newValue) } }
    }

    /// The checked form of setting `isGeometricDistortionCorrectionEnabled` (Linux
    /// addition). Apple's header names only the lock rule ("Where supported, the default
    /// value is YES"), no exception for a device without it: the lock is checked and the
    /// value stays false, as on a camera without geometric distortion correction.
    public func setGeometricDistortionCorrectionEnabled(_ enabled: Bool) throws(AVCaptureException) {
        try changeProperty("setGeometricDistortionCorrectionEnabled:") { nil }
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
