import Foundation

/// Appends `AVTimedMetadataGroup`s to a metadata input of an asset writer, as
/// AVAssetWriterInput.h's `AVAssetWriterInputMetadataAdaptor`: each group becomes a sample of
/// the input's boxed-metadata track, from its time range's start until the next group's.
open class AVAssetWriterInputMetadataAdaptor: NSObject, @unchecked Sendable {
    /// The input the groups go to.
    public let assetWriterInput: AVAssetWriterInput

    /// An adaptor for `input`, which must be a metadata input (else
    /// `NSInvalidArgumentException`) whose source format hint describes the items appended.
    public init(assetWriterInput input: AVAssetWriterInput) {
        assetWriterInput = input
        super.init()
        if input.mediaType != .metadata {
            AVCaptureException(.invalidArgument, selectorReason(
                "AVAssetWriterInputMetadataAdaptor", "initWithAssetWriterInput:", "the input's media type must be AVMediaTypeMetadata")).raise()
        }
    }

    /// Appends a group. Returns false when the writer is not writing (its `status` and
    /// `error` say why) or when the input's format hint does not describe an item; raises as
    /// `AVAssetWriterInput.append(_:)` does (before the session, after `markAsFinished()`).
    /// Call it from any thread.
    @discardableResult
    open func append(_ timedMetadataGroup: AVTimedMetadataGroup) -> Bool {
        var accepted = false
        enforce {
            accepted = try assetWriterInput.submitMetadata(
                timedMetadataGroup, selector: "appendTimedMetadataGroup:", what: "timed metadata group", type: "AVAssetWriterInputMetadataAdaptor")
        }
        return accepted
    }
}
