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

    open override var items: [AVMetadataItem] { groupItems }

    /// The time the items apply to.
    open var timeRange: CMTimeRange { range }

    /// A format description for sample buffers of groups like this one: boxed timed
    /// metadata ('meta', `kCMMetadataFormatType_Boxed`), as `AVCaptureMetadataInput` takes.
    open func copyFormatDescription() -> CMMetadataFormatDescription? { .boxedMetadata() }
}
