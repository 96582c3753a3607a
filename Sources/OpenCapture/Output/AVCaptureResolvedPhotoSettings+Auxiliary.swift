/// What the capture resolved of the features the output does not offer, and of the
/// deprecated still image stabilization.
extension AVCaptureResolvedPhotoSettings {
    /// The size of the DNG's embedded thumbnail: zero, raw photos carry none here.
    public var rawEmbeddedThumbnailDimensions: CMVideoDimensions { CMVideoDimensions(width: 0, height: 0) }
    /// The size of the portrait effects matte: zero, none is made.
    public var portraitEffectsMatteDimensions: CMVideoDimensions { CMVideoDimensions(width: 0, height: 0) }
    /// The size of the matte of `semanticSegmentationMatteType`: zero, none is made.
    public func dimensionsForSemanticSegmentationMatte(ofType semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType)
        -> CMVideoDimensions
    {
        CMVideoDimensions(width: 0, height: 0)
    }
    /// Whether red-eye reduction is applied: false (`isAutoRedEyeReductionSupported` is false).
    public var isRedEyeReductionEnabled: Bool { false }
    /// Deprecated (iOS 13: `photoProcessingTimeRange`): whether still image stabilization
    /// is used: true when the capture fuses several frames (`.quality` on a simulated camera).
    @available(*, deprecated, renamed: "photoProcessingTimeRange")
    public var isStillImageStabilizationEnabled: Bool { fusedFrames > 1 }
    /// Whether a virtual device's constituent pictures are fused: false.
    public var isVirtualDeviceFusionEnabled: Bool { false }
    /// Deprecated name of `isVirtualDeviceFusionEnabled`: false.
    @available(*, deprecated, renamed: "isVirtualDeviceFusionEnabled")
    public var isDualCameraFusionEnabled: Bool { false }
    /// Whether content-aware distortion correction is applied: false.
    public var isContentAwareDistortionCorrectionEnabled: Bool { false }
}
