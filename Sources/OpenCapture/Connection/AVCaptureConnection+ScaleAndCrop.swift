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

    /// The largest value `videoScaleAndCropFactor` takes: `stillImageMaxScaleAndCropFactor`
    /// for the video connection of an `AVCaptureStillImageOutput`, 1 for any other.
    public var videoMaxScaleAndCropFactor: CGFloat {
        output is AVCaptureStillImageOutput && inputPorts.contains { $0.mediaType == .video } ? Self.stillImageMaxScaleAndCropFactor : 1
    }

    /// The scale-and-crop factor of stills taken through the connection (default 1): at
    /// more than 1 a still is scaled by the factor and centre-cropped to its size. A value
    /// outside 1 ... `videoMaxScaleAndCropFactor` raises `NSRangeException`.
    public var videoScaleAndCropFactor: CGFloat {
        get { settings.withLock { $0.scaleAndCropFactor } }
        set { enforce { try setVideoScaleAndCropFactor(newValue) } }
    }

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

    /// Whether the camera's intrinsic matrix can be attached to delivered buffers: no (no
    /// camera here is calibrated for it).
    public var isCameraIntrinsicMatrixDeliverySupported: Bool { false }

    /// Whether each delivered buffer carries `kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix`
    /// (default false). Unsupported: setting true raises `NSInvalidArgumentException`, as on
    /// iOS for a connection that does not support it; false is allowed.
    public var isCameraIntrinsicMatrixDeliveryEnabled: Bool {
        get { false }
        set { enforce { try setCameraIntrinsicMatrixDeliveryEnabled(newValue) } }
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
