/// What the capture resolved of the features the output does not offer, and of the
/// deprecated still image stabilization.
extension AVCaptureResolvedPhotoSettings {
    var rawEmbeddedThumbnailDimensionsBacking: CMVideoDimensions { CMVideoDimensions(width: 0, height: 0) }
    var portraitEffectsMatteDimensionsBacking: CMVideoDimensions { CMVideoDimensions(width: 0, height: 0) }
    /// The size of the matte of `semanticSegmentationMatteType`: zero, none is made.
    func dimensionsForSemanticSegmentationMatteBacking(ofType semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType)
        -> CMVideoDimensions
    {
        CMVideoDimensions(width: 0, height: 0)
    }
    var isRedEyeReductionEnabledBacking: Bool { false }
    var isStillImageStabilizationEnabledBacking: Bool { fusedFrames > 1 }
    var isVirtualDeviceFusionEnabledBacking: Bool { false }
    var isDualCameraFusionEnabledBacking: Bool { false }
    var isContentAwareDistortionCorrectionEnabledBacking: Bool { false }
}
