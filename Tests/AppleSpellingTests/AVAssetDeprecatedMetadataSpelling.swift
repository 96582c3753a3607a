// The AVAsset.h / AVAssetTrack.h / AVMetadataFormat.h declarations of the iOS 16–18
// deprecation walk (#30) that were missing: the synchronous metadata-format accessors,
// lyrics and the asset's natural size, a track's language and frame reordering, each beside its replacement, as iOS code spells them.
import AVFoundation
import Testing

/// Touches the declarations; compiled, never called.
func spellAssetDeprecatedMetadata(_ asset: AVAsset, _ track: AVAssetTrack, _ composition: AVMutableComposition) async throws {
    let formats: [AVMetadataFormat] = asset.availableMetadataFormats
    let items: [AVMetadataItem] = asset.metadata(forFormat: .quickTimeMetadata)
    let lyrics: String? = asset.lyrics
    let size: CGSize = asset.naturalSize
    let loadedFormats: [AVMetadataFormat] = try await asset.load(.availableMetadataFormats)
    let loadedItems: [AVMetadataItem] = try await asset.loadMetadata(for: .iTunesMetadata)
    let loadedLyrics: String? = try await asset.load(.lyrics)
    let trackFormats: [AVMetadataFormat] = track.availableMetadataFormats
    let trackItems: [AVMetadataItem] = track.metadata(forFormat: .quickTimeUserData)
    let loadedTrackFormats: [AVMetadataFormat] = try await track.load(.availableMetadataFormats)
    let loadedTrackItems: [AVMetadataItem] = try await track.loadMetadata(for: .isoUserData)
    let compositionSize: CGSize = composition.naturalSize
    let language: String? = track.languageCode
    let loadedLanguage: String? = try await track.load(.languageCode)
    let reorders: Bool = track.requiresFrameReordering
    let loadedReorders: Bool = try await track.load(.requiresFrameReordering)
    _ = (language, loadedLanguage, reorders, loadedReorders)
    let all: [AVMetadataFormat] = [.quickTimeUserData, .isoUserData, .quickTimeMetadata, .iTunesMetadata, .id3Metadata, .hlsMetadata, .unknown]
    _ = (formats, items, lyrics, size, loadedFormats, loadedItems, loadedLyrics, trackFormats, trackItems, loadedTrackFormats, loadedTrackItems, compositionSize, all)
}

/// Overrides as a subclass of Apple's spells them.
final class SpellingDeprecatedMetadataAsset: AVURLAsset, @unchecked Sendable {
    override var availableMetadataFormats: [AVMetadataFormat] { super.availableMetadataFormats }
    override func metadata(forFormat format: AVMetadataFormat) -> [AVMetadataItem] { super.metadata(forFormat: format) }
    override var lyrics: String? { super.lyrics }
    override var naturalSize: CGSize { super.naturalSize }
}

/// A track subclass overriding the deprecated track accessors.
final class SpellingDeprecatedMetadataTrack: AVAssetTrack, @unchecked Sendable {
    override var availableMetadataFormats: [AVMetadataFormat] { super.availableMetadataFormats }
    override func metadata(forFormat format: AVMetadataFormat) -> [AVMetadataItem] { super.metadata(forFormat: format) }
    override var languageCode: String? { super.languageCode }
    override var requiresFrameReordering: Bool { super.requiresFrameReordering }
}

@Suite("AVMetadataFormat spelling")
struct AVMetadataFormatSpellingTests {
    @Test("the formats carry AVMetadataFormat.h's strings")
    func strings() {
        #expect(AVMetadataFormat.quickTimeUserData.rawValue == "com.apple.quicktime.udta")
        #expect(AVMetadataFormat.isoUserData.rawValue == "org.mp4ra")
        #expect(AVMetadataFormat.quickTimeMetadata.rawValue == "com.apple.quicktime.mdta")
        #expect(AVMetadataFormat.iTunesMetadata.rawValue == "com.apple.itunes")
        #expect(AVMetadataFormat.id3Metadata.rawValue == "org.id3")
        #expect(AVMetadataFormat.hlsMetadata.rawValue == "com.apple.quicktime.HLS")
        #expect(AVMetadataFormat.unknown.rawValue == "UNKNOWN")
    }
}
