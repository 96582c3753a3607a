import ImageIO
import OpenCapture

extension AVDepthData {
    /// The map mirrored or turned as `exifOrientation` says, to show it the way up the image
    /// is shown; its other properties kept (AVDepthData.h: `depthDataByApplyingExifOrientation:`).
    public func applyingExifOrientation(_ exifOrientation: CGImagePropertyOrientation) -> Self {
        applyingOrientation(exif: exifOrientation.rawValue)
    }
}

extension AVPortraitEffectsMatte {
    /// The matte mirrored or turned as `exifOrientation` says (AVPortraitEffectsMatte.h:
    /// `portraitEffectsMatteByApplyingExifOrientation:`).
    public func applyingExifOrientation(_ exifOrientation: CGImagePropertyOrientation) -> Self {
        applyingOrientation(exif: exifOrientation.rawValue)
    }
}

extension AVSemanticSegmentationMatte {
    /// The matte mirrored or turned as `exifOrientation` says (AVSemanticSegmentationMatte.h:
    /// `semanticSegmentationMatteByApplyingExifOrientation:`).
    public func applyingExifOrientation(_ exifOrientation: CGImagePropertyOrientation) -> Self {
        applyingOrientation(exif: exifOrientation.rawValue)
    }
}
