import Foundation

/// A collection of metadata items, as AVMetadataGroup.h's `AVMetadataGroup`.
open class AVMetadataGroup: NSObject, @unchecked Sendable {
    /// The items of the group.
    open var items: [AVMetadataItem] { [] }
    /// A label for the group's classification (iOS 10): nil, none is given here.
    open var classifyingLabel: String? { nil }
    /// An identifier of the group among others of its classification (iOS 10): nil.
    open var uniqueID: String? { nil }
}

/// Metadata items that apply to a range of time, as AVTimedMetadataGroup.h's
/// `AVTimedMetadataGroup`: what `AVCaptureMetadataInput.append(_:)` takes.
open class AVTimedMetadataGroup: AVMetadataGroup, @unchecked Sendable {
    private let groupItems: [AVMetadataItem]
    private let range: CMTimeRange

    /// A group of `items` for `timeRange` (an empty group marks a range without metadata).
    public init(items: [AVMetadataItem], timeRange: CMTimeRange) {
        groupItems = items
        range = timeRange
        super.init()
    }

    /// The group a sample buffer of boxed timed metadata holds (as an
    /// `AVAssetReaderTrackOutput` of a metadata track gives): its items, by the keys of the
    /// buffer's format description, for the buffer's time range; nil for a buffer of other
    /// media or without data.
    public convenience init?(sampleBuffer: CMSampleBuffer) {
        guard let keys = sampleBuffer.formatDescription?.metadataKeys, let block = CMSampleBufferGetDataBuffer(sampleBuffer) else { return nil }
        var bytes = Data(count: CMBlockBufferGetDataLength(block))
        let count = bytes.count
        let status = bytes.withUnsafeMutableBytes { raw in
            count == 0 ? noErr : CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: count, destination: raw.baseAddress!)
        }
        guard status == noErr else { return nil }
        let range = CMTimeRange(start: sampleBuffer.presentationTimeStamp, duration: sampleBuffer.duration)
        self.init(items: TimedMetadataCoding.items(ofSample: bytes, keys: keys, timeRange: range), timeRange: range)
    }

    open override var items: [AVMetadataItem] { groupItems }

    /// The time the items apply to.
    open var timeRange: CMTimeRange { range }

    /// A boxed timed-metadata format description ('meta', `kCMMetadataFormatType_Boxed`)
    /// with a key for each item (its identifier, data type and language tag), as
    /// `AVCaptureMetadataInput` and `AVAssetWriterInput` take; nil when an item has no
    /// identifier.
    open func copyFormatDescription() -> CMMetadataFormatDescription? {
        var specifications: [Any] = []
        for item in items {
            guard let identifier = item.identifier else { return nil }
            var specification: [String: Any] = [
                kCMMetadataFormatDescriptionMetadataSpecificationKey_Identifier: identifier.rawValue,
                kCMMetadataFormatDescriptionMetadataSpecificationKey_DataType: item.dataType ?? Self.dataType(of: item),
            ]
            if let tag = item.extendedLanguageTag { specification[kCMMetadataFormatDescriptionMetadataSpecificationKey_ExtendedLanguageTag] = tag }
            specifications.append(specification)
        }
        var description: CMMetadataFormatDescription?
        CMMetadataFormatDescriptionCreateWithMetadataSpecifications(
            allocator: nil, metadataType: kCMMetadataFormatType_Boxed, metadataSpecifications: specifications, formatDescriptionOut: &description)
        return description
    }

    /// The data type an item without one is written as, from its value.
    private static func dataType(of item: AVMetadataItem) -> String {
        switch item.value {
        case is NSString: kCMMetadataBaseDataType_UTF8
        case let number as NSNumber:
            ["f", "d"].contains(String(cString: number.objCType)) ? kCMMetadataBaseDataType_Float64 : kCMMetadataBaseDataType_SInt64
        default: kCMMetadataBaseDataType_RawData
        }
    }
}
