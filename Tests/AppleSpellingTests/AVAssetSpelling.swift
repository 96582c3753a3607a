// AVAsset.h and AVAsynchronousKeyValueLoading.h, spelled as iOS code spells it.
import AVFoundation
import Testing

/// Touches the asset declarations; compiled, never called.
func spellAVAsset(_ url: URL) async throws {
    let asset = AVURLAsset(url: url)
    let withOptions = AVURLAsset(url: url, options: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
    let assetURL: URL = withOptions.url
    let types: [AVFileType] = AVURLAsset.audiovisualTypes()
    let duration: CMTime = asset.duration
    let tracks: [AVAssetTrack] = asset.tracks
    let videoTracks: [AVAssetTrack] = asset.tracks(withMediaType: .video)
    let byID: AVAssetTrack? = asset.track(withTrackID: 1)
    let metadata: [AVMetadataItem] = asset.metadata
    let common: [AVMetadataItem] = asset.commonMetadata
    let created: AVMetadataItem? = asset.creationDate
    let rate: Float = asset.preferredRate
    let volume: Float = asset.preferredVolume
    let transform: CGAffineTransform = asset.preferredTransform
    let precise: Bool = asset.providesPreciseDurationAndTiming
    let flags: [Bool] = [asset.isPlayable, asset.isReadable, asset.isExportable, asset.isComposable]
    let loadedDuration: CMTime = try await asset.load(.duration)
    let loadedTracks: [AVAssetTrack] = try await asset.load(.tracks)
    let loadedMetadata: [AVMetadataItem] = try await asset.load(.metadata)
    let loadedCommon: [AVMetadataItem] = try await asset.load(.commonMetadata)
    let loadedTransform: CGAffineTransform = try await asset.load(.preferredTransform)
    let playable: Bool = try await asset.load(.isPlayable)
    let readable: Bool = try await asset.load(.isReadable)
    let (both, all): (CMTime, [AVAssetTrack]) = try await asset.load(.duration, .tracks)
    let three: (CMTime, [AVAssetTrack], [AVMetadataItem]) = try await asset.load(.duration, .tracks, .metadata)
    let audioTracks: [AVAssetTrack] = try await asset.loadTracks(withMediaType: .audio)
    let loadedByID: AVAssetTrack? = try await asset.loadTrack(withTrackID: 1)
    switch asset.status(of: .duration) {
    case .notYetLoaded, .loading, .loaded, .failed: break
    }
    asset.loadValuesAsynchronously(forKeys: ["duration"]) {}
    let general: AVAsset = asset
    let generalDuration: CMTime = try await general.load(.duration)
    _ = (assetURL, types, duration, tracks, videoTracks, byID, metadata, common, created, rate, volume, transform, precise, flags)
    _ = (loadedDuration, loadedTracks, loadedMetadata, loadedCommon, loadedTransform, playable, readable, both, all, three, audioTracks, loadedByID, generalDuration)
}

@Suite("AVAsset.h spelling")
struct AVAssetSpellingTests {
    @Test func missingFileHasNoTracks() async {
        let asset = AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/movie.mov"))
        #expect(asset.tracks.isEmpty)
        #expect(asset.preferredRate == 1)
        await #expect(throws: (any Error).self) { try await asset.load(.duration) }
    }
}
