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

    /// The ImageIO auxiliary data type of each matte type.
    private static let auxiliaryTypes: [MatteType: String] = [
        .skin: ImageAuxiliaryData.typeSemanticSegmentationSkinMatte, .hair: ImageAuxiliaryData.typeSemanticSegmentationHairMatte,
        .teeth: ImageAuxiliaryData.typeSemanticSegmentationTeethMatte, .glasses: ImageAuxiliaryData.typeSemanticSegmentationGlassesMatte,
    ]

    /// A matte from an image's auxiliary data of `imageSourceAuxiliaryDataType` (one of
    /// ImageIO's `kCGImageAuxiliaryDataTypeSemanticSegmentation…Matte`), its
    /// `kCGImageAuxiliaryDataInfoData` and `…DataDescription` (a `OneComponent8` image).
    ///
    /// - Throws: `AVError.invalidSourceMedia` for another type or a malformed dictionary.
    public convenience init(
        fromImageSourceAuxiliaryDataType imageSourceAuxiliaryDataType: CFString, dictionaryRepresentation imageSourceAuxDataInfoDictionary: [AnyHashable: Any]
    ) throws {
        let name = String(describing: imageSourceAuxiliaryDataType)
        guard let type = Self.auxiliaryTypes.first(where: { $0.value == name })?.key else {
            throw AVError(.invalidSourceMedia, "\(name) is not a semantic segmentation matte type")
        }
        let image = try AuxiliaryImage.map(
            from: imageSourceAuxDataInfoDictionary, what: "semantic segmentation matte", accepts: { $0 == .oneComponent8 },
            formats: "kCVPixelFormatType_OneComponent8")
        self.init(matteType: type, mattingImage: image)
    }

    /// The matte turned as an EXIF orientation (1…8) says; `applyingExifOrientation(_:)` (in
    /// AVFoundation, with ImageIO's orientation type) calls it.
    package func applyingOrientation(exif orientation: UInt32) -> Self {
        let made = AVSemanticSegmentationMatte(matteType: matteType, mattingImage: AuxiliaryImage.orient(storedMattingImage, exif: orientation))
        guard let result = made as? Self else { preconditionFailure("AVSemanticSegmentationMatte derives its own class, not \(Self.self)") }
        return result
    }

    /// The matte as an image's auxiliary data (`kCGImageAuxiliaryDataInfoData` and
    /// `…DataDescription`); `outAuxDataType` receives its `kCGImageAuxiliaryDataTypeSemanticSegmentation…Matte`.
    open func dictionaryRepresentation(forAuxiliaryDataType outAuxDataType: UnsafeMutablePointer<NSString?>?) -> [AnyHashable: Any]? {
        guard let type = Self.auxiliaryTypes[matteType] else { return nil }
        outAuxDataType?.pointee = NSString(string: type)
        return AuxiliaryImage.dictionary(of: storedMattingImage)
    }
}
