// Subclasses of the asset classes (AVAsset.h, AVAssetTrack.h, AVAssetTrackSegment.h, AVAssetReader.h,
// AVAssetReaderOutput.h, AVAssetWriter.h, AVAssetWriterInput.h, AVAssetExportSession.h) overriding
// the members stored at creation (compile-only).
import AVFoundation
import CoreMedia
import Foundation

/// Overrides the asset's URL.
final class URLAssetDouble: AVURLAsset, @unchecked Sendable {
    override var url: URL { super.url }
}

/// Overrides the track's asset.
final class AssetTrackDouble: AVAssetTrack, @unchecked Sendable {
    override var asset: AVAsset? { super.asset }
}

/// Overrides the segment's time mapping.
final class TrackSegmentDouble: AVAssetTrackSegment, @unchecked Sendable {
    override var timeMapping: CMTimeMapping { super.timeMapping }
}

/// Overrides the composition segment's source.
final class CompositionSegmentDouble: AVCompositionTrackSegment, @unchecked Sendable {
    override var sourceURL: URL? { super.sourceURL }
    override var sourceTrackID: CMPersistentTrackID { super.sourceTrackID }
}

/// Overrides the reader's asset.
final class AssetReaderDouble: AVAssetReader, @unchecked Sendable {
    override var asset: AVAsset { super.asset }
}

/// Overrides the track output's track and settings.
final class TrackOutputDouble: AVAssetReaderTrackOutput, @unchecked Sendable {
    override var track: AVAssetTrack { super.track }
    override var outputSettings: [String: Any]? { super.outputSettings }
}

/// Overrides the writer's URL and file type.
final class AssetWriterDouble: AVAssetWriter, @unchecked Sendable {
    override var outputURL: URL { super.outputURL }
    override var outputFileType: AVFileType { super.outputFileType }
}

/// Overrides the writer input's media type, settings and format hint.
final class WriterInputDouble: AVAssetWriterInput, @unchecked Sendable {
    override var mediaType: AVMediaType { super.mediaType }
    override var outputSettings: [String: Any]? { super.outputSettings }
    override var sourceFormatHint: CMFormatDescription? { super.sourceFormatHint }
}

/// Overrides the adaptor's input and attributes.
final class PixelBufferAdaptorDouble: AVAssetWriterInputPixelBufferAdaptor, @unchecked Sendable {
    override var assetWriterInput: AVAssetWriterInput { super.assetWriterInput }
    override var sourcePixelBufferAttributes: [String: Any]? { super.sourcePixelBufferAttributes }
}

/// Overrides the export session's asset and preset.
final class ExportSessionDouble: AVAssetExportSession, @unchecked Sendable {
    override var presetName: String { super.presetName }
    override var asset: AVAsset { super.asset }
}
