// Subclasses of AVDepthData.h, AVSemanticSegmentationMatte.h, AVPortraitEffectsMatte.h and
// AVCameraCalibrationData.h classes overriding their members (compile-only).
import AVFoundation
import CoreMedia
import Foundation

/// Overrides the depth data's members.
final class DepthDataDouble: AVDepthData, @unchecked Sendable {
    override var depthDataType: OSType { super.depthDataType }
    override var depthDataMap: CVPixelBuffer { super.depthDataMap }
    override var isDepthDataFiltered: Bool { super.isDepthDataFiltered }
    override var depthDataAccuracy: Accuracy { super.depthDataAccuracy }
    override var depthDataQuality: Quality { super.depthDataQuality }
}

/// Overrides the matte's type and image.
final class SegmentationMatteDouble: AVSemanticSegmentationMatte, @unchecked Sendable {
    override var matteType: MatteType { super.matteType }
    override var mattingImage: CVPixelBuffer { super.mattingImage }
}

/// Overrides the portrait matte's image.
final class PortraitMatteDouble: AVPortraitEffectsMatte, @unchecked Sendable {
    override var mattingImage: CVPixelBuffer { super.mattingImage }
}

/// Overrides the calibration data's stored members.
final class CalibrationDataDouble: AVCameraCalibrationData, @unchecked Sendable {
    override var pixelSize: Float { super.pixelSize }
    override var intrinsicMatrixReferenceDimensions: CGSize { super.intrinsicMatrixReferenceDimensions }
    override var lensDistortionLookupTable: Data? { super.lensDistortionLookupTable }
    override var inverseLensDistortionLookupTable: Data? { super.inverseLensDistortionLookupTable }
    override var lensDistortionCenter: CGPoint { super.lensDistortionCenter }
}
