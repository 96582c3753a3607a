import Foundation

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

    /// A matte from an image's portrait effects matte auxiliary data
    /// (`kCGImageAuxiliaryDataInfoData` and `…DataDescription`, a `OneComponent8` image).
    ///
    /// - Throws: `AVError.invalidSourceMedia` for a malformed dictionary.
    public convenience init(fromDictionaryRepresentation imageSourceAuxDataInfoDictionary: [AnyHashable: Any]) throws {
        let image = try AuxiliaryImage.map(
            from: imageSourceAuxDataInfoDictionary, what: "portrait effects matte", accepts: { $0 == .oneComponent8 },
            formats: "kCVPixelFormatType_OneComponent8")
        self.init(mattingImage: image)
    }

    /// The matte turned as an EXIF orientation (1…8) says; `applyingExifOrientation(_:)` (in
    /// AVFoundation, with ImageIO's orientation type) calls it.
    package func applyingOrientation(exif orientation: UInt32) -> Self {
        let made = AVPortraitEffectsMatte(mattingImage: AuxiliaryImage.orient(storedMattingImage, exif: orientation))
        guard let result = made as? Self else { preconditionFailure("AVPortraitEffectsMatte derives its own class, not \(Self.self)") }
        return result
    }

    /// The matte as an image's auxiliary data (`kCGImageAuxiliaryDataInfoData` and
    /// `…DataDescription`); `outAuxDataType` receives `kCGImageAuxiliaryDataTypePortraitEffectsMatte`.
    open func dictionaryRepresentation(forAuxiliaryDataType outAuxDataType: UnsafeMutablePointer<NSString?>?) -> [AnyHashable: Any]? {
        outAuxDataType?.pointee = NSString(string: ImageAuxiliaryData.typePortraitEffectsMatte)
        return AuxiliaryImage.dictionary(of: storedMattingImage)
    }
}
