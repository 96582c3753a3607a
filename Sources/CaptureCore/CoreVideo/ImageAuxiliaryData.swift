/// ImageIO's auxiliary-data dictionary keys and types (CGImageSource.h, CGImageProperties.h):
/// ImageIO's public constants are these strings, and AVFoundation's depth data reads and
/// writes its dictionaries with them.
package enum ImageAuxiliaryData {
    /// The map's bytes (`Data`).
    package static let infoData = "kCGImageAuxiliaryDataInfoData"
    /// The map's `Width`, `Height`, `BytesPerRow` and `PixelFormat`.
    package static let infoDataDescription = "kCGImageAuxiliaryDataInfoDataDescription"
    /// The map's XMP metadata.
    package static let infoMetadata = "kCGImageAuxiliaryDataInfoMetadata"
    package static let typeDepth = "kCGImageAuxiliaryDataTypeDepth"
    package static let typeDisparity = "kCGImageAuxiliaryDataTypeDisparity"
    package static let typePortraitEffectsMatte = "kCGImageAuxiliaryDataTypePortraitEffectsMatte"
    package static let typeSemanticSegmentationSkinMatte = "kCGImageAuxiliaryDataTypeSemanticSegmentationSkinMatte"
    package static let typeSemanticSegmentationHairMatte = "kCGImageAuxiliaryDataTypeSemanticSegmentationHairMatte"
    package static let typeSemanticSegmentationTeethMatte = "kCGImageAuxiliaryDataTypeSemanticSegmentationTeethMatte"
    package static let typeSemanticSegmentationGlassesMatte = "kCGImageAuxiliaryDataTypeSemanticSegmentationGlassesMatte"
}
