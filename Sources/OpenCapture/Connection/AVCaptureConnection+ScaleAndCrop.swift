import Foundation

/// The still-image digital crop (`videoScaleAndCropFactor`, iOS 5) and camera intrinsics
/// delivery (iOS 11).
///
/// Scale and crop applies to the video connection of an `AVCaptureStillImageOutput`: each
/// still is centre-cropped to 1/factor of its width and height and scaled back up to its
/// size, on top of the device's `videoZoomFactor`, as Apple documents. It is a digital crop,
/// so every camera can do it: the maximum is `stillImageMaxScaleAndCropFactor` there and 1
/// on every other connection (where the factor does nothing).
///
/// Intrinsics delivery is unsupported (`isCameraIntrinsicMatrixDeliverySupported` false,
/// as for an iPhone format without it): turning it on raises `NSInvalidArgumentException`.
extension AVCaptureConnection {
    /// The largest `videoScaleAndCropFactor` of a still-image output's video connection.
    public static let stillImageMaxScaleAndCropFactor: CGFloat = 16

    /// The checked form of setting `videoScaleAndCropFactor` (Linux addition).
    public func setVideoScaleAndCropFactor(_ factor: CGFloat) throws(AVCaptureException) {
        let maximum = videoMaxScaleAndCropFactor
        guard factor >= 1, factor <= maximum else {
            throw AVCaptureException(.range, selectorReason(
                "AVCaptureConnection", "setVideoScaleAndCropFactor:",
                "videoScaleAndCropFactor \(factor) is out of range [1, \(maximum)] - see videoMaxScaleAndCropFactor"))
        }
        settings.withLock { $0.scaleAndCropFactor = factor }
    }

    /// The checked form of setting `isCameraIntrinsicMatrixDeliveryEnabled` (Linux addition).
    public func setCameraIntrinsicMatrixDeliveryEnabled(_ enabled: Bool) throws(AVCaptureException) {
        guard !enabled || isCameraIntrinsicMatrixDeliverySupported else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureConnection", "setCameraIntrinsicMatrixDeliveryEnabled:",
                "cameraIntrinsicMatrixDelivery is not supported by this connection - check isCameraIntrinsicMatrixDeliverySupported"))
        }
    }
}
