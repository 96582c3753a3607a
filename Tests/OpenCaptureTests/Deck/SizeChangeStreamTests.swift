import Foundation
import Testing

@testable import OpenCapture

/// A stream whose picture size changes mid-way (two raw encodes concatenated, issue 26):
/// the decoder's converter was made for the first frame's size and overran the smaller
/// frames' buffers. Every frame now comes at the track's declared size (FFmpeg's probe of
/// this short file declares the size it saw last, 160x120).
@Suite("Size change mid-stream")
struct SizeChangeStreamTests {
    /// 6 frames at 320x240, then 6 at 160x120, as one raw H.264 stream.
    static func concatenated() throws -> URL {
        let large = DeckFixture.directory.appendingPathComponent("\(UUID().uuidString.prefix(8))-a.h264")
        try DeckFixture.run(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "6", "-c:v", "libx264", "-preset",
                "ultrafast", "-pix_fmt", "yuv420p", "-y", large.path,
            ])
        let small = try DeckFixture.clip("b.h264", frames: 6, ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        let joined = DeckFixture.directory.appendingPathComponent("\(UUID().uuidString.prefix(8))-ab.h264")
        try (try Data(contentsOf: large) + Data(contentsOf: small)).write(to: joined)
        return joined
    }

    @Test("AVAssetReader reads all 12 frames, each at the track's size, in every output format", arguments: [
        kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_32BGRA,
    ])
    func assetReaderKeepsOneSize(format: OSType) async throws {
        let url = try Self.concatenated()
        let track = try #require(try await AVURLAsset(url: url).loadTracks(withMediaType: .video).first)
        let declared = "\(Int(track.naturalSize.width))x\(Int(track.naturalSize.height))"
        #expect(["320x240", "160x120"].contains(declared))
        let (reader, samples) = try await AssetReaderFixture.frames(url, pixelFormat: format)
        #expect(reader.status == .completed, "\(String(describing: reader.error))")
        #expect(samples.count == 12)
        let sizes = samples.compactMap(CMSampleBufferGetImageBuffer).map { "\(CVPixelBufferGetWidth($0))x\(CVPixelBufferGetHeight($0))" }
        #expect(sizes == Array(repeating: declared, count: 12), "\(sizes)")
    }

    @Test("a deck plays all 12 frames forwards without a runtime error")
    func deckKeepsOneSize() throws {
        let url = try Self.concatenated()
        let device = try DeckFixture.deck(url)
        let collector = DeckCollector()
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, collector: collector)
        defer { session.stopRunning() }
        let errors = RuntimeErrorWatch(session)
        collector.wait(for: 12)
        DeckFixture.waitForStop(device, collector)
        #expect(collector.hashes.count == 12)
        #expect(errors.wait(seconds: 0) == nil)
    }
}
