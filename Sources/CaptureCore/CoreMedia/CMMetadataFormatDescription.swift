import Foundation

/// A format description of timed metadata (media type `kCMMediaType_Metadata`), as Core
/// Media's `CMMetadataFormatDescription`: the same type as every format description.
public typealias CMMetadataFormatDescription = CMFormatDescription

/// The kinds of timed-metadata formats (a FourCC), as Core Media's `CMMetadataFormatType`.
public typealias CMMetadataFormatType = FourCharCode
/// Boxed metadata, QuickTime's and AVFoundation's timed-metadata format ('mebx').
public let kCMMetadataFormatType_Boxed: CMMetadataFormatType = 0x6D65_6278
/// ID3 tags ('id3 ').
public let kCMMetadataFormatType_ID3: CMMetadataFormatType = 0x6964_3320
/// Timed metadata in ISO 14496-12 'emsg' boxes ('emsg').
public let kCMMetadataFormatType_EMSG: CMMetadataFormatType = 0x656D_7367
/// SHOUTcast-style ICY metadata ('icy ').
public let kCMMetadataFormatType_ICY: CMMetadataFormatType = 0x6963_7920

extension CMFormatDescription {
    /// A boxed timed-metadata format description ('meta', 'mebx') without keys.
    package static func boxedMetadata() -> CMMetadataFormatDescription {
        CMFormatDescription(metadataSubType: kCMMetadataFormatType_Boxed, keys: [])
    }
}
