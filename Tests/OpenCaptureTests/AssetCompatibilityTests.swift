import Foundation
import Testing

@testable import OpenCapture

/// The iOS 16-deprecated Photos-library and AirPlay compatibility of the deprecation walk
/// (#30) on files ffmpeg made, sync and loaded alike.
@Suite("Asset compatibility")
struct AssetCompatibilityTests {
    /// 64x48 pictures and a tone, 0.5 s, with the output options given.
    static func movie(_ ext: String, _ arguments: [String]) throws -> URL {
        try AssetReaderFixture.ffmpeg(
            ext, input: ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"],
            ["-t", "0.5"] + arguments)
    }

    @Test("an MP4 with H.264 and AAC, and a QuickTime movie with HEVC, are compatible")
    func compatible() async throws {
        let mp4 = try Self.movie("mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        let mov = try Self.movie("mov", ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        defer {
            try? FileManager.default.removeItem(at: mp4)
            try? FileManager.default.removeItem(at: mov)
        }
        for url in [mp4, mov] {
            let asset = AVURLAsset(url: url)
            #expect(asset.isCompatibleWithSavedPhotosAlbum, "\(url.lastPathComponent)")
            #expect(asset.isCompatibleWithAirPlayVideo)
            #expect(try await asset.load(.isCompatibleWithSavedPhotosAlbum))
            #expect(try await asset.load(.isCompatibleWithAirPlayVideo))
        }
    }

    @Test("Matroska, an unsupported video or audio codec, and audio alone are not compatible")
    func incompatible() async throws {
        let files = [
            try Self.movie("mkv", ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"]),
            try Self.movie("mp4", ["-c:v", "mpeg4", "-c:a", "aac"]),
            try Self.movie("mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "libopus"]),
            try AssetReaderFixture.ffmpeg("m4a", input: ["-f", "lavfi", "-i", "sine=sample_rate=48000"], ["-t", "0.5", "-c:a", "aac"]),
        ]
        defer { for url in files { try? FileManager.default.removeItem(at: url) } }
        for url in files {
            let asset = AVURLAsset(url: url)
            #expect(!asset.isCompatibleWithSavedPhotosAlbum, "\(url.lastPathComponent)")
            #expect(!asset.isCompatibleWithAirPlayVideo)
            #expect(try await asset.load(.isCompatibleWithSavedPhotosAlbum) == false)
            #expect(try await asset.load(.isCompatibleWithAirPlayVideo) == false)
        }
    }

    @Test("an unreadable file is not compatible and fails the loads")
    func unreadable() async throws {
        let asset = AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).mp4"))
        #expect(!asset.isCompatibleWithSavedPhotosAlbum && !asset.isCompatibleWithAirPlayVideo)
        await #expect(throws: (any Error).self) { try await asset.load(.isCompatibleWithAirPlayVideo) }
    }
}
