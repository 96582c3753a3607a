import Foundation
import Testing

@testable import OpenCapture

/// The iOS 16-deprecated synchronous metadata accessors added by the deprecation walk (#30)
/// answer what their `load` replacements answer, from a file ffmpeg tagged.
@Suite("Deprecated asset metadata accessors and their replacements")
struct AssetDeprecatedMetadataTests {
    @Test("availableMetadataFormats, metadata(forFormat:), lyrics: the sync forms equal the loaded ones")
    func formatsAndLyrics() async throws {
        let url = try AssetReaderFixture.ffmpeg(
            "m4a", input: ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=0.1"],
            ["-c:a", "aac", "-metadata", "title=Deprecated walk", "-metadata", "lyrics=la la la"])
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        #expect(try await asset.load(.availableMetadataFormats) == [.quickTimeMetadata])
        #expect(asset.availableMetadataFormats == [.quickTimeMetadata])
        let items = asset.metadata(forFormat: .quickTimeMetadata)
        #expect(items.contains { $0.identifier == .quickTimeMetadataTitle && $0.stringValue == "Deprecated walk" })
        #expect(try await asset.loadMetadata(for: .quickTimeMetadata).count == items.count)
        #expect(asset.metadata(forFormat: .id3Metadata).isEmpty)
        #expect(try await asset.loadMetadata(for: .iTunesMetadata).isEmpty)
        #expect(asset.lyrics == "la la la")
        #expect(try await asset.load(.lyrics) == "la la la")
        #expect(asset.naturalSize == .zero, "no video track")
        let track = try #require(asset.tracks.first)
        #expect(track.availableMetadataFormats.isEmpty)
        #expect(try await track.load(.availableMetadataFormats).isEmpty)
        #expect(track.metadata(forFormat: .quickTimeMetadata).isEmpty)
    }

    @Test("languageCode and requiresFrameReordering: the file's language tag and B-frames, sync and loaded alike")
    func languageAndReordering() async throws {
        let tagged = try AssetReaderFixture.video("mp4", frames: 10, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-metadata:s:v:0", "language=fra"])
        let plain = try AssetReaderFixture.video("mp4", frames: 10, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-bf", "0"])
        defer {
            try? FileManager.default.removeItem(at: tagged)
            try? FileManager.default.removeItem(at: plain)
        }
        let reordered = try #require(AVURLAsset(url: tagged).tracks(withMediaType: .video).first)
        #expect(reordered.languageCode == "fra")
        #expect(try await reordered.load(.languageCode) == "fra")
        #expect(reordered.requiresFrameReordering, "libx264 makes B-frames by default")
        #expect(try await reordered.load(.requiresFrameReordering))
        let inOrder = try #require(AVURLAsset(url: plain).tracks(withMediaType: .video).first)
        #expect(inOrder.languageCode == "und", "ffmpeg's mp4 muxer writes 'und' without a language")
        #expect(!inOrder.requiresFrameReordering)
        #expect(try await inOrder.load(.requiresFrameReordering) == false)
    }

    @Test("an untagged movie lists no format and no lyrics; naturalSize is the video track's")
    func untaggedMovie() async throws {
        let url = try AssetReaderFixture.video("mkv", frames: 3, ["-c:v", "ffv1", "-map_metadata", "-1", "-fflags", "+bitexact"])
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        #expect(asset.lyrics == nil)
        #expect(try await asset.load(.lyrics) == nil)
        #expect(asset.naturalSize == CGSize(width: 64, height: 48))
        #expect(asset.availableMetadataFormats == (asset.metadata.isEmpty ? [] : [.quickTimeMetadata]))
    }
}
