import Foundation

// Timed-metadata identifiers, data types and format descriptions, as CMMetadata.h and the
// metadata part of CMFormatDescription.h. CFString, CFArray and CFDictionary are Swift's
// String, array and dictionary here (Linux has no Core Foundation types), as elsewhere in
// this module.

/// Key spaces of metadata identifiers (the part before the '/'); 'mdta' has reverse-DNS keys.
public let kCMMetadataKeySpace_QuickTimeUserData = "udta"
public let kCMMetadataKeySpace_ISOUserData = "uiso"
public let kCMMetadataKeySpace_QuickTimeMetadata = "mdta"
public let kCMMetadataKeySpace_iTunes = "itsk"
public let kCMMetadataKeySpace_ID3 = "id3"
public let kCMMetadataKeySpace_Icy = "icy"
public let kCMMetadataKeySpace_HLSDateRange = "lsdr"

public let kCMMetadataIdentifierError_AllocationFailed: OSStatus = -16300
public let kCMMetadataIdentifierError_RequiredParameterMissing: OSStatus = -16301
public let kCMMetadataIdentifierError_BadKey: OSStatus = -16302
public let kCMMetadataIdentifierError_BadKeyLength: OSStatus = -16303
public let kCMMetadataIdentifierError_BadKeyType: OSStatus = -16304
public let kCMMetadataIdentifierError_BadNumberKey: OSStatus = -16305
public let kCMMetadataIdentifierError_BadKeySpace: OSStatus = -16306
public let kCMMetadataIdentifierError_BadIdentifier: OSStatus = -16307
public let kCMMetadataIdentifierError_NoKeyValueAvailable: OSStatus = -16308

public let kCMMetadataBaseDataType_RawData = "com.apple.metadata.datatype.raw-data"
public let kCMMetadataBaseDataType_UTF8 = "com.apple.metadata.datatype.UTF-8"
public let kCMMetadataBaseDataType_UTF16 = "com.apple.metadata.datatype.UTF-16"
public let kCMMetadataBaseDataType_GIF = "com.apple.metadata.datatype.GIF"
public let kCMMetadataBaseDataType_JPEG = "com.apple.metadata.datatype.JPEG"
public let kCMMetadataBaseDataType_PNG = "com.apple.metadata.datatype.PNG"
public let kCMMetadataBaseDataType_BMP = "com.apple.metadata.datatype.BMP"
public let kCMMetadataBaseDataType_Float32 = "com.apple.metadata.datatype.float32"
public let kCMMetadataBaseDataType_Float64 = "com.apple.metadata.datatype.float64"
public let kCMMetadataBaseDataType_SInt8 = "com.apple.metadata.datatype.int8"
public let kCMMetadataBaseDataType_SInt16 = "com.apple.metadata.datatype.int16"
public let kCMMetadataBaseDataType_SInt32 = "com.apple.metadata.datatype.int32"
public let kCMMetadataBaseDataType_SInt64 = "com.apple.metadata.datatype.int64"
public let kCMMetadataBaseDataType_UInt8 = "com.apple.metadata.datatype.uint8"
public let kCMMetadataBaseDataType_UInt16 = "com.apple.metadata.datatype.uint16"
public let kCMMetadataBaseDataType_UInt32 = "com.apple.metadata.datatype.uint32"
public let kCMMetadataBaseDataType_UInt64 = "com.apple.metadata.datatype.uint64"
public let kCMMetadataBaseDataType_PointF32 = "com.apple.metadata.datatype.PointF32"
public let kCMMetadataBaseDataType_DimensionsF32 = "com.apple.metadata.datatype.DimensionsF32"
public let kCMMetadataBaseDataType_RectF32 = "com.apple.metadata.datatype.RectF32"
public let kCMMetadataBaseDataType_AffineTransformF64 = "com.apple.metadata.datatype.AffineTransformF64"
public let kCMMetadataBaseDataType_PolygonF32 = "com.apple.metadata.datatype.PolygonF32"
public let kCMMetadataBaseDataType_PolylineF32 = "com.apple.metadata.datatype.PolylineF32"
public let kCMMetadataBaseDataType_JSON = "com.apple.metadata.datatype.JSON"
/// A string of an ISO 6709 location; conforms to UTF-8.
public let kCMMetadataDataType_QuickTimeMetadataLocation_ISO6709 = "com.apple.quicktime.location.ISO6709"
/// A string of degrees from magnetic North; conforms to UTF-8.
public let kCMMetadataDataType_QuickTimeMetadataDirection = "com.apple.quicktime.direction"

/// Keys of a metadata specification (`CMMetadataFormatDescriptionCreateWithMetadataSpecifications`).
public let kCMMetadataFormatDescriptionMetadataSpecificationKey_Identifier = "Identifier"
public let kCMMetadataFormatDescriptionMetadataSpecificationKey_DataType = "DataType"
public let kCMMetadataFormatDescriptionMetadataSpecificationKey_ExtendedLanguageTag = "ExtendedLanguageTag"
public let kCMMetadataFormatDescriptionMetadataSpecificationKey_StructuralDependency = "StructuralDependency"
public let kCMMetadataFormatDescriptionMetadataSpecificationKey_SetupData = "SetupData"

/// Keys of a key's dictionary (`CMMetadataFormatDescriptionGetKeyWithLocalID`).
public let kCMMetadataFormatDescriptionKey_Namespace = "keyNamespace"
public let kCMMetadataFormatDescriptionKey_Value = "keyValue"
public let kCMMetadataFormatDescriptionKey_LocalID = "localID"
public let kCMMetadataFormatDescriptionKey_DataType = "dataType"
public let kCMMetadataFormatDescriptionKey_DataTypeNamespace = "dataTypeNamespace"
public let kCMMetadataFormatDescriptionKey_ConformingDataTypes = "conformingDataTypes"
public let kCMMetadataFormatDescriptionKey_LanguageTag = "dataTypeLanguage"
public let kCMMetadataFormatDescriptionKey_StructuralDependency = "StructuralDependency"
public let kCMMetadataFormatDescriptionKey_SetupData = "SetupData"

/// One key of a boxed-metadata format description.
package struct CMMetadataKeyEntry: Sendable, Equatable {
    /// "mdta/com.apple.quicktime.video-orientation".
    package var identifier: String
    /// A `kCMMetadataBaseDataType_` or registered data type.
    package var dataType: String
    package var extendedLanguageTag: String?

    /// The key space (before the first '/') and the key.
    package var keySpace: String { String(identifier.prefix { $0 != "/" }) }
    package var key: String { String(identifier.drop { $0 != "/" }.dropFirst()).removingPercentEncoding ?? "" }

    /// The key space as a FourCC (the box's key namespace).
    package var namespace: UInt32 { keySpace.utf8.reduce(0) { $0 << 8 | UInt32($1) } }
    /// The key's bytes as the key namespace stores them.
    package var keyBytes: Data { Data(key.utf8) }

    /// QuickTime's well-known type for the data type ('dtyp' in namespace 0), nil for raw data.
    package var wellKnownType: UInt32? {
        let types: [String: UInt32] = [
            kCMMetadataBaseDataType_UTF8: 1, kCMMetadataBaseDataType_UTF16: 2, kCMMetadataBaseDataType_GIF: 12,
            kCMMetadataBaseDataType_JPEG: 13, kCMMetadataBaseDataType_PNG: 14, kCMMetadataBaseDataType_BMP: 27,
            kCMMetadataBaseDataType_Float32: 23, kCMMetadataBaseDataType_Float64: 24, kCMMetadataBaseDataType_SInt8: 65,
            kCMMetadataBaseDataType_SInt16: 66, kCMMetadataBaseDataType_SInt32: 67, kCMMetadataBaseDataType_SInt64: 74,
            kCMMetadataBaseDataType_UInt8: 75, kCMMetadataBaseDataType_UInt16: 76, kCMMetadataBaseDataType_UInt32: 77,
            kCMMetadataBaseDataType_UInt64: 78, kCMMetadataBaseDataType_PointF32: 70, kCMMetadataBaseDataType_DimensionsF32: 71,
            kCMMetadataBaseDataType_RectF32: 72, kCMMetadataBaseDataType_AffineTransformF64: 79,
            kCMMetadataBaseDataType_JSON: 82,
            kCMMetadataDataType_QuickTimeMetadataLocation_ISO6709: 1, kCMMetadataDataType_QuickTimeMetadataDirection: 1,
        ]
        return types[dataType]
    }

    /// The data type a well-known type reads back as.
    package static func dataType(wellKnownType: UInt32?) -> String {
        let types: [UInt32: String] = [
            1: kCMMetadataBaseDataType_UTF8, 2: kCMMetadataBaseDataType_UTF16, 12: kCMMetadataBaseDataType_GIF,
            13: kCMMetadataBaseDataType_JPEG, 14: kCMMetadataBaseDataType_PNG, 27: kCMMetadataBaseDataType_BMP,
            23: kCMMetadataBaseDataType_Float32, 24: kCMMetadataBaseDataType_Float64, 65: kCMMetadataBaseDataType_SInt8,
            66: kCMMetadataBaseDataType_SInt16, 67: kCMMetadataBaseDataType_SInt32, 74: kCMMetadataBaseDataType_SInt64,
            75: kCMMetadataBaseDataType_UInt8, 76: kCMMetadataBaseDataType_UInt16, 77: kCMMetadataBaseDataType_UInt32,
            78: kCMMetadataBaseDataType_UInt64, 70: kCMMetadataBaseDataType_PointF32, 71: kCMMetadataBaseDataType_DimensionsF32,
            72: kCMMetadataBaseDataType_RectF32, 79: kCMMetadataBaseDataType_AffineTransformF64, 82: kCMMetadataBaseDataType_JSON,
        ]
        return wellKnownType.flatMap { types[$0] } ?? kCMMetadataBaseDataType_RawData
    }

    package init(identifier: String, dataType: String, extendedLanguageTag: String? = nil) {
        self.identifier = identifier
        self.dataType = dataType
        self.extendedLanguageTag = extendedLanguageTag
    }
}

/// Makes an identifier ("keySpace/key") from a key (a string, or for four-character key
/// spaces a four-byte `Data` or an `NSNumber` FourCC) and a key space of one to four
/// characters. Characters outside printable ASCII, and '%' and '/', are percent-escaped.
@discardableResult
public func CMMetadataCreateIdentifierForKeyAndKeySpace(
    allocator: AnyObject?, key: Any, keySpace: String, identifierOut: UnsafeMutablePointer<String?>
) -> OSStatus {
    guard (1...4).contains(keySpace.utf8.count), keySpace.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x2F }) else {
        return kCMMetadataIdentifierError_BadKeySpace
    }
    let bytes: [UInt8]
    switch key {
    case let string as String: bytes = Array(string.utf8)
    case let string as NSString: bytes = Array((string as String).utf8)
    case let data as Data: bytes = Array(data)
    case let number as NSNumber:
        let code = number.uint32Value
        bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }
    default: return kCMMetadataIdentifierError_BadKeyType
    }
    guard !bytes.isEmpty else { return kCMMetadataIdentifierError_BadKeyLength }
    let escaped = bytes.map { byte -> String in
        byte > 0x20 && byte < 0x7F && byte != 0x25 && byte != 0x2F ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
    }
    identifierOut.pointee = keySpace + "/" + escaped.joined()
    return noErr
}

/// A boxed-metadata format description (`kCMMetadataFormatType_Boxed`) of the items the
/// specifications describe: dictionaries with an identifier and a data type (both required)
/// and optionally an extended language tag. Each becomes a key with local ID 1, 2, ... in order.
@discardableResult
public func CMMetadataFormatDescriptionCreateWithMetadataSpecifications(
    allocator: AnyObject?, metadataType: CMMetadataFormatType, metadataSpecifications: [Any],
    formatDescriptionOut: UnsafeMutablePointer<CMMetadataFormatDescription?>
) -> OSStatus {
    guard metadataType == kCMMetadataFormatType_Boxed else { return kCMFormatDescriptionError_InvalidParameter }
    var keys: [CMMetadataKeyEntry] = []
    for case let specification in metadataSpecifications {
        guard let dictionary = specification as? [String: Any],
            let identifier = dictionary[kCMMetadataFormatDescriptionMetadataSpecificationKey_Identifier] as? String,
            let dataType = dictionary[kCMMetadataFormatDescriptionMetadataSpecificationKey_DataType] as? String
        else { return kCMFormatDescriptionError_InvalidParameter }
        guard identifier.contains("/"), !identifier.hasPrefix("/") else { return kCMMetadataIdentifierError_BadIdentifier }
        let language = dictionary[kCMMetadataFormatDescriptionMetadataSpecificationKey_ExtendedLanguageTag] as? String
        let entry = CMMetadataKeyEntry(identifier: identifier, dataType: dataType, extendedLanguageTag: language)
        if !keys.contains(entry) { keys.append(entry) }
    }
    formatDescriptionOut.pointee = CMFormatDescription(metadataSubType: kCMMetadataFormatType_Boxed, keys: keys)
    return noErr
}

/// The identifiers of a boxed-metadata format's keys, in local-ID order; nil for another format.
public func CMMetadataFormatDescriptionGetIdentifiers(_ desc: CMMetadataFormatDescription) -> [Any]? {
    desc.metadataKeys.map { $0.map(\.identifier) }
}

/// The key with local ID `localKeyID` (1 for the first): its namespace, value, local ID,
/// data type and language tag; nil for no such key.
public func CMMetadataFormatDescriptionGetKeyWithLocalID(_ desc: CMMetadataFormatDescription, localKeyID: OSType) -> [String: Any]? {
    guard let keys = desc.metadataKeys, localKeyID >= 1, Int(localKeyID) <= keys.count else { return nil }
    let key = keys[Int(localKeyID) - 1]
    var dictionary: [String: Any] = [
        kCMMetadataFormatDescriptionKey_Namespace: NSNumber(value: key.namespace),
        kCMMetadataFormatDescriptionKey_Value: key.keyBytes,
        kCMMetadataFormatDescriptionKey_LocalID: NSNumber(value: localKeyID),
        kCMMetadataFormatDescriptionKey_DataType: key.dataType,
        kCMMetadataFormatDescriptionKey_DataTypeNamespace: "com.apple.quicktime.mdta",
    ]
    if let tag = key.extendedLanguageTag { dictionary[kCMMetadataFormatDescriptionKey_LanguageTag] = tag }
    return dictionary
}
