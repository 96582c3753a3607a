import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// `AVVideoPixelAspectRatioKey`: the track's sample aspect ratio, as ffprobe reads it.
@Suite("Asset writer pixel aspect ratio")
struct AssetWriterPixelAspectRatioTests {
    typealias Fixture = AssetWriterFixture

    static func write(_ settings: [String: Any]) async throws -> [String: Any] {
        let (url, writer) = try await Fixture.writeFrames(settings)
        defer { try? FileManager.default.removeItem(at: url) }
        try #require(writer.status == .completed, "\(String(describing: writer.error))")
        return try #require(Fixture.stream(try Fixture.probe(url), "video"))
    }

    @Test("12:11 pixels (PAL's 4:3 at 352x288), in the compression properties or the settings; square without the key")
    func sampleAspectRatio() async throws {
        let base: [String: Any] = [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 352, AVVideoHeightKey: 288]
        let ratio = [AVVideoPixelAspectRatioHorizontalSpacingKey: 12, AVVideoPixelAspectRatioVerticalSpacingKey: 11]
        let inProperties = try await Self.write(base.merging([AVVideoCompressionPropertiesKey: [AVVideoPixelAspectRatioKey: ratio]]) { $1 })
        #expect(inProperties["sample_aspect_ratio"] as? String == "12:11" && inProperties["display_aspect_ratio"] as? String == "4:3")
        let topLevel = try await Self.write(base.merging([AVVideoPixelAspectRatioKey: ratio]) { $1 })
        #expect(topLevel["sample_aspect_ratio"] as? String == "12:11")
        let square = try await Self.write(base)
        #expect(square["sample_aspect_ratio"] as? String == "1:1")
    }

    @Test("a ratio without both positive spacings is refused at the input's init")
    func refused() {
        let settings: [String: Any] = [
            AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 352, AVVideoHeightKey: 288,
            AVVideoPixelAspectRatioKey: [AVVideoPixelAspectRatioHorizontalSpacingKey: 12],
        ]
        #expect(throws: AVCaptureException.self) { try AVAssetWriterInput.validate(.video, settings, nil) }
    }
}
