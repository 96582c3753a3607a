import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// kCMSampleBufferAttachmentKey_ForceKeyFrame on buffers appended to an AVAssetWriterInput.
@Suite("Asset writer forced keyframes")
struct AssetWriterForceKeyFrameTests {
    typealias Fixture = AssetWriterFixture

    /// The frame indexes (presentation time × 30) of the packets ffprobe flags as keyframes.
    static func keyframeIndexes(_ url: URL) throws -> [Int] {
        let text = try FFprobe.text(url.path, ["-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0"])
        let packets = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",") }
        return packets.compactMap { fields -> Int? in
            guard fields.count >= 2, fields[1].hasPrefix("K"), let time = Double(fields[0]) else { return nil }
            return Int((time * 30).rounded())
        }.sorted()
    }

    @Test("a buffer carrying ForceKeyFrame true is encoded as a keyframe; the others are not")
    func forcedKeyframe() async throws {
        let url = Fixture.temporaryURL("mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let video = AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterTests.videoSettings(.h264))
        writer.add(video)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        let frame = Fixture.frame()
        for index in 0..<30 {
            try await video.waitUntilReady()
            let sample = Fixture.videoSample(frame, at: CMTime(value: Int64(index), timescale: 30))
            if index == 12 {
                CMSetAttachment(sample, key: kCMSampleBufferAttachmentKey_ForceKeyFrame, value: kCFBooleanTrue, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
            } else if index == 20 {
                CMSetAttachment(sample, key: kCMSampleBufferAttachmentKey_ForceKeyFrame, value: kCFBooleanFalse, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
            }
            video.append(sample)
        }
        video.markAsFinished()
        await writer.finishWriting()
        #expect(writer.status == .completed)
        let keyframes = try Self.keyframeIndexes(url)
        #expect(keyframes == [0, 12], "frame 12 forced; frame 20 (false) and the rest not: \(keyframes)")
    }
}
