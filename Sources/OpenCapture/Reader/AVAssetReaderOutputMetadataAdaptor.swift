import Foundation

/// Reads a timed-metadata track as `AVTimedMetadataGroup`s, as AVAssetReaderOutput.h's
/// `AVAssetReaderOutputMetadataAdaptor`: over an `AVAssetReaderTrackOutput` of a metadata
/// track with nil output settings.
open class AVAssetReaderOutputMetadataAdaptor: NSObject, @unchecked Sendable {
    /// The output the groups come from.
    public let assetReaderTrackOutput: AVAssetReaderTrackOutput

    /// An adaptor over `trackOutput`; raises `NSInvalidArgumentException` unless it reads a
    /// metadata track with nil output settings, and when it was already added to a reader
    /// that started reading.
    public init(assetReaderTrackOutput trackOutput: AVAssetReaderTrackOutput) {
        assetReaderTrackOutput = trackOutput
        super.init()
        if trackOutput.track.mediaType != .metadata || trackOutput.outputSettings != nil {
            AVCaptureException(.invalidArgument, selectorReason(
                "AVAssetReaderOutputMetadataAdaptor", "initWithAssetReaderTrackOutput:",
                "the track output must read a metadata track (AVMediaTypeMetadata) with nil outputSettings")).raise()
        }
    }

    /// The next group of the track (its items and time range); nil at the end, after a
    /// failure or cancellation. Call it from one thread at a time, as the output's
    /// `copyNextSampleBuffer()`.
    open func nextTimedMetadataGroup() -> AVTimedMetadataGroup? {
        guard let buffer = assetReaderTrackOutput.copyNextSampleBuffer() else { return nil }
        return AVTimedMetadataGroup(sampleBuffer: buffer)
    }
}
