import Foundation

// Cinematic video (iOS 26, AVCaptureDevice.h, AVCaptureInput.h, AVCaptureMetadataOutput.h,
// AVMetadataObject.h): a simulated depth of field rendered from a depth map, with focus that
// follows detected subjects. No camera here has the depth data or the renderer, so every
// answer is the one Apple's headers give for a format without the feature: the format does
// not support it (zoom range 1 to 1, no frame-rate range, simulated apertures 0), the input
// cannot enable it, the focus calls and the simulated aperture raise
// `NSInvalidArgumentException` with Apple's reasons, and no scene status applies.

extension AVCaptureDevice {
    /// How Cinematic video keeps a subject in focus (iOS 26).
    public enum CinematicVideoFocusMode: Int, Sendable, Hashable {
        /// No mode given: weak focus.
        case none = 0
        /// The subject stays in focus until it leaves the scene.
        case strong = 1
        /// Focus moves with the prominence of the subjects in the scene.
        case weak = 2
    }

    /// The checked form of `setCinematicVideoTrackingFocus(detectedObjectID:focusMode:)` (Linux addition).
    public func setCinematicVideoTrackingFocusChecked(detectedObjectID: Int, focusMode: CinematicVideoFocusMode) throws(AVCaptureException) {
        throw cinematicFocusRefusal("setCinematicVideoTrackingFocusWithDetectedObjectID:focusMode:")
    }

    /// The checked form of `setCinematicVideoTrackingFocus(at:focusMode:)` (Linux addition).
    public func setCinematicVideoTrackingFocusChecked(at point: CGPoint, focusMode: CinematicVideoFocusMode) throws(AVCaptureException) {
        throw cinematicFocusRefusal("setCinematicVideoTrackingFocusAtPoint:focusMode:")
    }

    /// The checked form of `setCinematicVideoFixedFocus(at:focusMode:)` (Linux addition).
    public func setCinematicVideoFixedFocusChecked(at point: CGPoint, focusMode: CinematicVideoFocusMode) throws(AVCaptureException) {
        throw cinematicFocusRefusal("setCinematicVideoFixedFocusAtPoint:focusMode:")
    }

    /// Apple's refusal of the Cinematic focus calls on a device whose active format does not
    /// support Cinematic video (no format here does).
    private func cinematicFocusRefusal(_ selector: String) -> AVCaptureException {
        AVCaptureException(.invalidArgument, selectorReason(
            "AVCaptureDevice", selector, "Not supported - use activeFormat.isCinematicVideoCaptureSupported"))
    }

    var cinematicVideoCaptureSceneMonitoringStatusesBacking: Set<AVCaptureSceneMonitoringStatus> { [] }
}

extension AVCaptureDevice.Format {
    var isCinematicVideoCaptureSupportedBacking: Bool { false }
    var videoMinZoomFactorForCinematicVideoBacking: CGFloat { 1 }
    var videoMaxZoomFactorForCinematicVideoBacking: CGFloat { 1 }
    var videoFrameRateRangeForCinematicVideoBacking: AVFrameRateRange? { nil }
    var defaultSimulatedApertureBacking: Float { 0 }
    var minSimulatedApertureBacking: Float { 0 }
    var maxSimulatedApertureBacking: Float { 0 }
}

extension AVCaptureDeviceInput {
    /// The checked form of setting `simulatedAperture` (Linux addition): a format without a
    /// simulated aperture (`minSimulatedAperture` 0, every format here) refuses any value
    /// with `NSInvalidArgumentException`; one with them refuses a value outside their range
    /// with `NSRangeException` and keeps one inside it.
    public func setSimulatedAperture(_ aperture: Float) throws(AVCaptureException) {
        let selector = "setSimulatedAperture:"
        let format = device.activeFormat
        guard format.minSimulatedAperture != 0 else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureDeviceInput", selector, "Not supported - use activeFormat.minSimulatedAperture"))
        }
        guard aperture >= format.minSimulatedAperture, aperture <= format.maxSimulatedAperture else {
            throw AVCaptureException(.range, selectorReason(
                "AVCaptureDeviceInput", selector,
                "simulatedAperture \(aperture) is outside [\(format.minSimulatedAperture), \(format.maxSimulatedAperture)]"))
        }
        simulatedApertureValue.withLock { $0 = aperture }
    }
}

/// What a device reports about a scene that does not suit a feature (iOS 26).
public struct AVCaptureSceneMonitoringStatus: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Too little light for the features in use to work well.
    public static let notEnoughLight = AVCaptureSceneMonitoringStatus(rawValue: "AVCaptureSceneMonitoringStatusNotEnoughLight")
}
