import Foundation
import Testing

@testable import OpenCapture

/// The iOS 16-deprecated fragment and protection accessors of the deprecation walk (#30)
/// on files ffmpeg made, sync and loaded alike.
@Suite("Asset fragments and protected content")
struct AssetFragmentsTests {
    @Test("a fragmented MP4 can contain and contains fragments; ffmpeg writes no 'mehd', so no duration hint")
    func fragmented() async throws {
        let url = try AssetReaderFixture.video("mp4", frames: 10, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "5", "-movflags", "frag_keyframe+empty_moov"])
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        #expect(asset.canContainFragments)
        #expect(asset.containsFragments)
        #expect(try await asset.load(.canContainFragments))
        #expect(try await asset.load(.containsFragments))
        #expect(asset.overallDurationHint == .invalid)
        #expect(try await asset.load(.overallDurationHint) == .invalid)
        #expect(!asset.hasProtectedContent)
    }

    @Test("a plain MP4 and a Matroska file have no fragments and no protected content")
    func plain() async throws {
        let mp4 = try AssetReaderFixture.video("mp4", frames: 5, ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let mkv = try AssetReaderFixture.video("mkv", frames: 5, ["-c:v", "ffv1"])
        defer {
            try? FileManager.default.removeItem(at: mp4)
            try? FileManager.default.removeItem(at: mkv)
        }
        for url in [mp4, mkv] {
            let asset = AVURLAsset(url: url)
            #expect(!asset.canContainFragments && !asset.containsFragments)
            #expect(try await asset.load(.containsFragments) == false)
            #expect(!asset.hasProtectedContent)
            #expect(try await asset.load(.hasProtectedContent) == false)
        }
    }

    @Test("an unreadable file fails the loads")
    func unreadable() async throws {
        let asset = AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).mp4"))
        await #expect(throws: (any Error).self) { try await asset.load(.hasProtectedContent) }
        #expect(!asset.containsFragments)
    }
}
