import Foundation
import Testing

@testable import OpenCapture

/// AVAssetExportSession's duration and file-length estimates on a file ffmpeg made.
@Suite("Asset export estimates")
struct AssetExportEstimateTests {
    /// 2 s of 320x240 H.264 at about 400 kb/s and AAC at 64 kb/s.
    static func movie() throws -> URL {
        try AssetReaderFixture.ffmpeg(
            "mp4", input: ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"],
            ["-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-b:v", "400k", "-c:a", "aac", "-b:a", "64k"])
    }

    @Test("a passthrough estimates the asset's duration and about the source file's length; a time range halves both")
    func passthrough() async throws {
        let url = try Self.movie()
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let session = try #require(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetPassthrough))
        let duration = try await session.estimatedMaximumDuration
        #expect(abs(duration.seconds - asset.duration.seconds) < 0.001)
        let length = try await session.estimatedOutputFileLengthInBytes
        let fileSize = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64)
        // The boxes and index are not in the track rates: within a fifth of the file.
        #expect(abs(Double(length) - Double(fileSize)) < Double(fileSize) / 5, "estimate \(length), file \(fileSize)")
        #expect(session.estimatedOutputFileLength == length)
        session.timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
        #expect(try await session.estimatedMaximumDuration == CMTime(value: 1, timescale: 1))
        let half = try await session.estimatedOutputFileLengthInBytes
        #expect(abs(Double(half) * 2 - Double(length)) / Double(length) < 0.01, "half \(half), whole \(length)")
    }

    @Test("a preset with a bit rate estimates from it; a file-length limit holds length and duration")
    func presetAndLimit() async throws {
        let url = try Self.movie()
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let audioRate = Double(try #require(asset.tracks(withMediaType: .audio).first).estimatedDataRate)
        let session = try #require(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetMediumQuality))
        let expected = (1_500_000 + audioRate) / 8 * asset.duration.seconds
        #expect(abs(Double(try await session.estimatedOutputFileLengthInBytes) - expected) <= 1)
        session.fileLengthLimit = Int64(expected / 4)
        #expect(try await session.estimatedOutputFileLengthInBytes == Int64(expected / 4))
        let held = try await session.estimatedMaximumDuration
        #expect(abs(held.seconds - asset.duration.seconds / 4) < 0.01, "\(held.seconds)")
    }

    @Test("the completion handlers give the estimates, and an unreadable asset's error")
    func handlers() async throws {
        let url = try Self.movie()
        defer { try? FileManager.default.removeItem(at: url) }
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: url), presetName: AVAssetExportPresetPassthrough))
        let (duration, durationError) = await withCheckedContinuation { done in
            session.estimateMaximumDuration { done.resume(returning: ($0, $1)) }
        }
        #expect(durationError == nil && duration.seconds > 1.9)
        let (length, lengthError) = await withCheckedContinuation { done in
            session.estimateOutputFileLength { done.resume(returning: ($0, $1)) }
        }
        #expect(lengthError == nil && length > 0)

        let missing = AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).mp4"))
        let broken = try #require(AVAssetExportSession(asset: missing, presetName: AVAssetExportPresetPassthrough))
        let (zero, failure) = await withCheckedContinuation { done in
            broken.estimateOutputFileLength { done.resume(returning: ($0, $1)) }
        }
        #expect(zero == 0 && failure != nil)
        await #expect(throws: (any Error).self) { try await broken.estimatedMaximumDuration }
    }
}
