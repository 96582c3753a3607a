// AVAssetTrack.h, spelled as iOS code spells it.
import AVFoundation
import Testing

/// Touches the track declarations; compiled, never called.
func spellAVAssetTrack(_ track: AVAssetTrack) async throws {
    let asset: AVAsset? = track.asset
    let trackID: CMPersistentTrackID = track.trackID
    let mediaType: AVMediaType = track.mediaType
    let formats: [Any] = track.formatDescriptions
    let flags: [Bool] = [track.isPlayable, track.isDecodable, track.isEnabled, track.isSelfContained]
    let range: CMTimeRange = track.timeRange
    let scale: CMTimeScale = track.naturalTimeScale
    let dataRate: Float = track.estimatedDataRate
    let size: CGSize = track.naturalSize
    let transform: CGAffineTransform = track.preferredTransform
    let volume: Float = track.preferredVolume
    let frameRate: Float = track.nominalFrameRate
    let minimum: CMTime = track.minFrameDuration
    let metadata: [AVMetadataItem] = track.metadata
    let common: [AVMetadataItem] = track.commonMetadata
    let loadedSize: CGSize = try await track.load(.naturalSize)
    let loadedTransform: CGAffineTransform = try await track.load(.preferredTransform)
    let loadedRate: Float = try await track.load(.nominalFrameRate)
    let loadedDataRate: Float = try await track.load(.estimatedDataRate)
    let loadedRange: CMTimeRange = try await track.load(.timeRange)
    let loadedFormats: [CMFormatDescription] = try await track.load(.formatDescriptions)
    _ = (asset, trackID, mediaType, formats, flags, range, scale, dataRate, size, transform, volume, frameRate, minimum, metadata, common)
    _ = (loadedSize, loadedTransform, loadedRate, loadedDataRate, loadedRange, loadedFormats)
}

@Suite("AVAssetTrack.h spelling")
struct AVAssetTrackSpellingTests {
    @Test func spelled() {
        // The function above is the check: it compiles only with Apple's spellings.
        let check: (AVAssetTrack) async throws -> Void = spellAVAssetTrack
        _ = check
    }
}
