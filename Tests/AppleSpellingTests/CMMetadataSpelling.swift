// CMMetadata.h and the metadata part of CMFormatDescription.h (iOS 18 SDK), spelled as iOS
// capture code spells them (the CFString constants used `as String`).
import AVFoundation
import CoreMedia
import Foundation

/// Builds a boxed-metadata format description and reads its keys; compiled, never called.
func spellCMMetadata() -> CMMetadataFormatDescription? {
    let specifications: [[String: Any]] = [
        [
            kCMMetadataFormatDescriptionMetadataSpecificationKey_Identifier as String: AVMetadataIdentifier.quickTimeMetadataLocationISO6709.rawValue,
            kCMMetadataFormatDescriptionMetadataSpecificationKey_DataType as String: kCMMetadataDataType_QuickTimeMetadataLocation_ISO6709 as String,
            kCMMetadataFormatDescriptionMetadataSpecificationKey_ExtendedLanguageTag as String: "en",
        ],
        [
            kCMMetadataFormatDescriptionMetadataSpecificationKey_Identifier as String: AVMetadataIdentifier.quickTimeMetadataDirectionFacing.rawValue,
            kCMMetadataFormatDescriptionMetadataSpecificationKey_DataType as String: kCMMetadataDataType_QuickTimeMetadataDirection as String,
        ],
    ]
    _ = (kCMMetadataFormatDescriptionMetadataSpecificationKey_StructuralDependency, kCMMetadataFormatDescriptionMetadataSpecificationKey_SetupData)
    var description: CMMetadataFormatDescription?
    let status: OSStatus = CMMetadataFormatDescriptionCreateWithMetadataSpecifications(
        allocator: kCFAllocatorDefault, metadataType: kCMMetadataFormatType_Boxed, metadataSpecifications: specifications,
        formatDescriptionOut: &description)
    guard status == noErr, let description else { return nil }
    let identifiers = CMMetadataFormatDescriptionGetIdentifiers(description) as? [String]
    let key = CMMetadataFormatDescriptionGetKeyWithLocalID(description, localKeyID: 1)
    let namespace = key?[kCMMetadataFormatDescriptionKey_Namespace as String]
    let value = key?[kCMMetadataFormatDescriptionKey_Value as String]
    _ = (kCMMetadataFormatDescriptionKey_LocalID, kCMMetadataFormatDescriptionKey_DataType, kCMMetadataFormatDescriptionKey_DataTypeNamespace)
    _ = (kCMMetadataFormatDescriptionKey_ConformingDataTypes, kCMMetadataFormatDescriptionKey_LanguageTag)
    _ = (kCMMetadataFormatDescriptionKey_StructuralDependency, kCMMetadataFormatDescriptionKey_SetupData)
    var identifier: String?
    let made: OSStatus = CMMetadataCreateIdentifierForKeyAndKeySpace(
        allocator: kCFAllocatorDefault, key: "com.apple.quicktime.video-orientation" as NSString,
        keySpace: kCMMetadataKeySpace_QuickTimeMetadata, identifierOut: &identifier)
    let errors: [OSStatus] = [
        kCMMetadataIdentifierError_AllocationFailed, kCMMetadataIdentifierError_RequiredParameterMissing, kCMMetadataIdentifierError_BadKey,
        kCMMetadataIdentifierError_BadKeyLength, kCMMetadataIdentifierError_BadKeyType, kCMMetadataIdentifierError_BadNumberKey,
        kCMMetadataIdentifierError_BadKeySpace, kCMMetadataIdentifierError_BadIdentifier, kCMMetadataIdentifierError_NoKeyValueAvailable,
    ]
    let types: [String] = [
        kCMMetadataBaseDataType_RawData, kCMMetadataBaseDataType_UTF8, kCMMetadataBaseDataType_UTF16, kCMMetadataBaseDataType_GIF,
        kCMMetadataBaseDataType_JPEG, kCMMetadataBaseDataType_PNG, kCMMetadataBaseDataType_BMP, kCMMetadataBaseDataType_Float32,
        kCMMetadataBaseDataType_Float64, kCMMetadataBaseDataType_SInt8, kCMMetadataBaseDataType_SInt16, kCMMetadataBaseDataType_SInt32,
        kCMMetadataBaseDataType_SInt64, kCMMetadataBaseDataType_UInt8, kCMMetadataBaseDataType_UInt16, kCMMetadataBaseDataType_UInt32,
        kCMMetadataBaseDataType_UInt64, kCMMetadataBaseDataType_PointF32, kCMMetadataBaseDataType_DimensionsF32,
        kCMMetadataBaseDataType_RectF32, kCMMetadataBaseDataType_AffineTransformF64, kCMMetadataBaseDataType_PolygonF32,
        kCMMetadataBaseDataType_PolylineF32, kCMMetadataBaseDataType_JSON,
    ]
    let spaces: [String] = [
        kCMMetadataKeySpace_QuickTimeUserData, kCMMetadataKeySpace_ISOUserData, kCMMetadataKeySpace_QuickTimeMetadata,
        kCMMetadataKeySpace_iTunes, kCMMetadataKeySpace_ID3, kCMMetadataKeySpace_Icy, kCMMetadataKeySpace_HLSDateRange,
    ]
    _ = (identifiers, namespace, value, made, errors, types, spaces, identifier)
    return description
}
