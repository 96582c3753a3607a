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

    /// Who may turn Center Stage on and off (default `.user`).
    public class var centerStageControlMode: CenterStageControlMode {
        get { centerStage.withLock { $0.mode } }
        set { centerStage.withLock { $0.mode = newValue } }
    }

    /// Whether Center Stage is on for the app. Setting it while `centerStageControlMode` is
    /// `.user` raises, as on iOS. On Linux no format supports Center Stage, so it never
    /// becomes active on a device (`isCenterStageActive` stays false).
    public class var isCenterStageEnabled: Bool {
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

    /// Whether Center Stage is framing this device's video now: never (no format supports it).
    public var isCenterStageActive: Bool { activeFormat.isCenterStageSupported && AVCaptureDevice.isCenterStageEnabled }

    /// Whether `centerStageRectOfInterest` can be set: no.
    public var isCenterStageRectOfInterestSupported: Bool { false }

    /// The part of the picture Center Stage keeps in frame: the whole picture. Setting
    /// another raises, as where unsupported.
    public var centerStageRectOfInterest: CGRect {
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

    /// Whether the user turned the Portrait effect on in Control Center: there is none on Linux.
    public class var isPortraitEffectEnabled: Bool { false }
    /// Whether the Portrait effect blurs this device's background now: never.
    public var isPortraitEffectActive: Bool { false }
    /// Whether the user turned Studio Light on: there is none on Linux.
    public class var isStudioLightEnabled: Bool { false }
    /// Whether Studio Light lights this device's video now: never.
    public var isStudioLightActive: Bool { false }
    /// Whether the user turned background replacement on: there is none on Linux.
    public class var isBackgroundReplacementEnabled: Bool { false }
    /// Whether the background is being replaced now: never.
    public var isBackgroundReplacementActive: Bool { false }

    /// The rigid transform between two cameras' optical centres, when the system has
    /// calibrated them together: nil, as for cameras without calibration data.
    public class func extrinsicMatrix(from fromDevice: AVCaptureDevice, to toDevice: AVCaptureDevice) -> Data? { nil }

    /// Whether global tone mapping is on: false (no format supports it). Setting true raises.
    public var isGlobalToneMappingEnabled: Bool {
        get { false }
        set { enforce { try requireUnsupportedOff(newValue, supported: activeFormat.isGlobalToneMappingSupported, "setGlobalToneMappingEnabled:", "globalToneMappingEnabled") } }
    }

    /// Whether the device can correct lens distortion: no (the simulated lenses have none;
    /// V4L2 cameras correct in firmware if at all).
    public var isGeometricDistortionCorrectionSupported: Bool { false }
    /// Whether distortion correction is on: false. Setting true raises.
    public var isGeometricDistortionCorrectionEnabled: Bool {
        get { false }
        set { enforce { try requireUnsupportedOff(newValue, supported: isGeometricDistortionCorrectionSupported, "setGeometricDistortionCorrectionEnabled:", "geometricDistortionCorrectionEnabled") } }
    }

    /// Whether the device picks the frame rate from the light (iOS 18): false (no format
    /// supports it). Setting true raises.
    public var isAutoVideoFrameRateEnabled: Bool {
        get { false }
        set { enforce { try requireUnsupportedOff(newValue, supported: activeFormat.isAutoVideoFrameRateSupported, "setAutoVideoFrameRateEnabled:", "autoVideoFrameRateEnabled") } }
    }

    /// The zoom factor at which a Dual Camera switches to its telephoto lens (deprecated in
    /// iOS 13 for `virtualDeviceSwitchOverVideoZoomFactors`): that list's first factor on a
    /// dual camera, 1 on other devices.
    @available(*, deprecated, renamed: "virtualDeviceSwitchOverVideoZoomFactors")
    public var dualCameraSwitchOverVideoZoomFactor: CGFloat {
        guard deviceType == .builtInDualCamera, let first = virtualDeviceSwitchOverVideoZoomFactors.first else { return 1 }
        return CGFloat(first.doubleValue)
    }

    /// Turning an unsupported switch on raises; off is allowed. Both need the lock.
    private func requireUnsupportedOff(_ value: Bool, supported: Bool, _ selector: String, _ name: String) throws(AVCaptureException) {
        try requireLock(selector)
        guard !value || supported else {
            throw AVCaptureException(.invalidArgument, selectorReason("AVCaptureDevice", selector, "\(name) is not supported by the activeFormat"))
        }
    }
}

extension AVCaptureDevice.Format {
    /// The zoom range the system recommends for a zoom slider (iOS 18): nil, Apple's answer
    /// when no recommendation is available (no system zoom control on Linux).
    public var systemRecommendedVideoZoomRange: ClosedRange<CGFloat>? { nil }
    /// The exposure-bias range the system recommends for a slider (iOS 18): nil, likewise.
    public var systemRecommendedExposureBiasRange: ClosedRange<Float>? { nil }
    /// Zoom ranges with depth delivery (17.2): none (no depth).
    public var supportedVideoZoomRangesForDepthDataDelivery: [ClosedRange<CGFloat>] { [] }
    /// Whether zoom outside those ranges is allowed while delivering depth (17.2): no depth, false.
    public var zoomFactorsOutsideOfVideoZoomRangesForDepthDeliverySupported: Bool { false }
    /// Zoom factors with depth delivery (iOS 16, deprecated in 17.2): none (no depth formats).
    @available(*, deprecated, renamed: "supportedVideoZoomRangesForDepthDataDelivery")
    public var supportedVideoZoomFactorsForDepthDataDelivery: [CGFloat] { [] }
    /// Whether this depth format can deliver a portrait effects matte with photos (iOS 12):
    /// no (no format here is a depth format).
    public var isPortraitEffectsMatteStillImageDeliverySupported: Bool { false }
    /// Whether `isAutoVideoFrameRateEnabled` can be turned on: no.
    public var isAutoVideoFrameRateSupported: Bool { false }
    /// Output classes the format cannot feed: none (every output takes every format).
    public var unsupportedCaptureOutputClasses: [AnyClass] { [] }
    /// Frame rates with the Portrait effect: nil (unsupported).
    public var videoFrameRateRangeForPortraitEffect: AVFrameRateRange? { nil }
    /// Zoom range under Center Stage: unsupported, so 1 to `videoMaxZoomFactor`, the
    /// values Apple's header gives for a format without Center Stage.
    public var videoMinZoomFactorForCenterStage: CGFloat { 1 }
    public var videoMaxZoomFactorForCenterStage: CGFloat { videoMaxZoomFactor }
    /// Frame rates with Center Stage: nil (unsupported).
    public var videoFrameRateRangeForCenterStage: AVFrameRateRange? { nil }
    /// Frame rates with Studio Light: nil (unsupported).
    public var videoFrameRateRangeForStudioLight: AVFrameRateRange? { nil }
    /// Whether spatial (stereo) video can be recorded: no simulated or V4L2 camera pair does.
    public var isSpatialVideoCaptureSupported: Bool { false }
    /// Whether background replacement can run: no.
    public var isBackgroundReplacementSupported: Bool { false }
    /// Frame rates with background replacement: nil (unsupported).
    public var videoFrameRateRangeForBackgroundReplacement: AVFrameRateRange? { nil }
    /// Whether any stabilization besides `.off` is supported (deprecated in iOS 8).
    @available(*, deprecated, message: "Use isVideoStabilizationModeSupported(_:)")
    public var isVideoStabilizationSupported: Bool {
        [.standard, .cinematic, .cinematicExtended, .previewOptimized, .cinematicExtendedEnhanced].contains { isVideoStabilizationModeSupported($0) }
    }
}
