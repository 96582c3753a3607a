import Foundation

/// A matting image segmenting one kind of content (hair, skin, teeth, glasses) of a photo
/// (AVSemanticSegmentationMatte.h). Never made by a capture here: no simulated or V4L2
/// camera segments its pictures, so `AVCapturePhotoOutput.availableSemanticSegmentationMatteTypes`
/// is empty and `AVCapturePhoto.semanticSegmentationMatte(for:)` answers nil, as on an
/// iPhone without the feature.
open class AVSemanticSegmentationMatte: NSObject, @unchecked Sendable {
    /// The kind of content a matte segments (`AVSemanticSegmentationMatteType`).
    public struct MatteType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// All the skin of all persons in the picture.
        public static let skin = MatteType(rawValue: "AVSemanticSegmentationMatteTypeSkin")
        /// All the hair of all persons in the picture.
        public static let hair = MatteType(rawValue: "AVSemanticSegmentationMatteTypeHair")
        /// All the teeth of all persons in the picture.
        public static let teeth = MatteType(rawValue: "AVSemanticSegmentationMatteTypeTeeth")
        /// All the glasses (eyeglasses, sunglasses) persons in the picture wear.
        public static let glasses = MatteType(rawValue: "AVSemanticSegmentationMatteTypeGlasses")
    }

    private let storedMatteType: MatteType
    /// What the matte segments; fixed for the matte's life.
    open var matteType: MatteType { storedMatteType }
    private let storedMattingImage: CVPixelBuffer
    /// The matting image: `kCVPixelFormatType_OneComponent8`, 0 outside the content, 255 inside.
    open var mattingImage: CVPixelBuffer { storedMattingImage }

    /// The matting image's pixel format (always `kCVPixelFormatType_OneComponent8`).
    open var pixelFormatType: OSType { CVPixelBufferGetPixelFormatType(mattingImage) }

    package init(matteType: MatteType, mattingImage: CVPixelBuffer) {
        self.storedMatteType = matteType
        self.storedMattingImage = mattingImage
    }

    /// A matte of the same type wrapping `pixelBuffer` (a derivative after an edit). Throws
    /// `AVError.unsupportedOutputSettings` unless the buffer is `kCVPixelFormatType_OneComponent8`.
    open func replacingSemanticSegmentationMatte(with pixelBuffer: CVPixelBuffer) throws -> AVSemanticSegmentationMatte {
        guard CVPixelBufferGetPixelFormatType(pixelBuffer) == kCVPixelFormatType_OneComponent8 else {
            throw AVError(.unsupportedOutputSettings, "A semantic segmentation matte must be kCVPixelFormatType_OneComponent8")
        }
        return AVSemanticSegmentationMatte(matteType: matteType, mattingImage: pixelBuffer)
    }
}

/// A matte separating a portrait's foreground subject from its background
/// (AVPortraitEffectsMatte.h). Never made by a capture here: the cameras measure no
/// depth, so `isPortraitEffectsMatteDeliverySupported` is false and
/// `AVCapturePhoto.portraitEffectsMatte` is nil, as on an iPhone without a depth camera.
open class AVPortraitEffectsMatte: NSObject, @unchecked Sendable {
    private let storedMattingImage: CVPixelBuffer
    /// The matting image: `kCVPixelFormatType_OneComponent8`, 255 on the subject.
    open var mattingImage: CVPixelBuffer { storedMattingImage }

    /// The matting image's pixel format (always `kCVPixelFormatType_OneComponent8`).
    open var pixelFormatType: OSType { CVPixelBufferGetPixelFormatType(mattingImage) }

    package init(mattingImage: CVPixelBuffer) {
        self.storedMattingImage = mattingImage
    }

    /// A matte wrapping `pixelBuffer` (a derivative after an edit). Throws
    /// `AVError.unsupportedOutputSettings` unless the buffer is `kCVPixelFormatType_OneComponent8`.
    open func replacingPortraitEffectsMatte(with pixelBuffer: CVPixelBuffer) throws -> AVPortraitEffectsMatte {
        guard CVPixelBufferGetPixelFormatType(pixelBuffer) == kCVPixelFormatType_OneComponent8 else {
            throw AVError(.unsupportedOutputSettings, "A portrait effects matte must be kCVPixelFormatType_OneComponent8")
        }
        return AVPortraitEffectsMatte(mattingImage: pixelBuffer)
    }
}

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
