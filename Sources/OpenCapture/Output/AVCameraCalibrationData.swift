import Foundation

/// A camera's calibration: pixel size, lens distortion tables and their centre
/// (AVCameraCalibrationData.h). Never made here: calibration data comes only with virtual
/// device constituent photos (`isCameraCalibrationDataDeliverySupported` is false), as on
/// iPhones that do not deliver it. The intrinsic and extrinsic matrices (simd
/// `matrix_float3x3`/`matrix_float4x3`) are not declared: Linux has no simd module.
open class AVCameraCalibrationData: NSObject, @unchecked Sendable {
    private let storedPixelSize: Float
    /// The size of one sensor pixel, in millimetres.
    open var pixelSize: Float { storedPixelSize }
    private let storedIntrinsicMatrixReferenceDimensions: CGSize
    /// The dimensions the intrinsics refer to.
    open var intrinsicMatrixReferenceDimensions: CGSize { storedIntrinsicMatrixReferenceDimensions }
    private let storedLensDistortionLookupTable: Data?
    /// Radial distortion magnification factors from the centre outwards (32-bit floats).
    open var lensDistortionLookupTable: Data? { storedLensDistortionLookupTable }
    private let storedInverseLensDistortionLookupTable: Data?
    /// The inverse of `lensDistortionLookupTable`.
    open var inverseLensDistortionLookupTable: Data? { storedInverseLensDistortionLookupTable }
    private let storedLensDistortionCenter: CGPoint
    /// The distortion centre, in the reference dimensions' pixels.
    open var lensDistortionCenter: CGPoint { storedLensDistortionCenter }

    package init(
        pixelSize: Float, intrinsicMatrixReferenceDimensions: CGSize, lensDistortionLookupTable: Data?,
        inverseLensDistortionLookupTable: Data?, lensDistortionCenter: CGPoint
    ) {
        self.storedPixelSize = pixelSize
        self.storedIntrinsicMatrixReferenceDimensions = intrinsicMatrixReferenceDimensions
        self.storedLensDistortionLookupTable = lensDistortionLookupTable
        self.storedInverseLensDistortionLookupTable = inverseLensDistortionLookupTable
        self.storedLensDistortionCenter = lensDistortionCenter
    }
}
