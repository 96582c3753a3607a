import ImageIO
import OpenCapture

extension AVDepthData {
    /// The map mirrored or turned as `exifOrientation` says, to show it the way up the image
    /// is shown; its other properties kept (AVDepthData.h: `depthDataByApplyingExifOrientation:`).
    public func applyingExifOrientation(_ exifOrientation: CGImagePropertyOrientation) -> Self {
        applyingOrientation(exif: exifOrientation.rawValue)
    }
}
