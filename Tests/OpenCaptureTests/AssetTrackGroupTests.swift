import Foundation
import Testing

@testable import OpenCapture

/// The iOS 16-deprecated track groups of the deprecation walk (#30): the 'tkhd' alternate
/// groups of files ffmpeg made (its MP4 muxer puts audio tracks in group 1).
@Suite("Asset track groups")
struct AssetTrackGroupTests {
    @Test("an MP4 with two audio tracks has one group of both; its video is in none")
    func audioGroup() async throws {
        let url = try AssetReaderFixture.ffmpeg(
            "mp4",
            input: ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-f", "lavfi", "-i", "sine=frequency=440", "-f", "lavfi", "-i", "sine=frequency=880"],
            ["-t", "0.5", "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let audio = asset.tracks(withMediaType: .audio).map { NSNumber(value: $0.trackID) }
        #expect(audio.count == 2)
        #expect(asset.trackGroups.map(\.trackIDs) == [audio])
        #expect(try await asset.load(.trackGroups).map(\.trackIDs) == [audio])
    }

    @Test("a video-only MP4 and a Matroska file have no groups; an unreadable file fails the load")
    func none() async throws {
        let mp4 = try AssetReaderFixture.video("mp4", frames: 5, ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let mkv = try AssetReaderFixture.video("mkv", frames: 5, ["-c:v", "ffv1"])
        defer {
            try? FileManager.default.removeItem(at: mp4)
            try? FileManager.default.removeItem(at: mkv)
        }
        #expect(AVURLAsset(url: mp4).trackGroups.isEmpty)
        #expect(try await AVURLAsset(url: mkv).load(.trackGroups).isEmpty)
        let missing = AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).mp4"))
        await #expect(throws: (any Error).self) { try await missing.load(.trackGroups) }
    }
}
