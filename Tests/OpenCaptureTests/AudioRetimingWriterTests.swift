import Foundation
import Testing

@testable import OpenCapture

/// What NextLevel, Flutter's camera and vision-camera do after a pause: every audio
/// buffer re-timed with CMSampleBufferCreateCopyWithNewTiming, then appended to the writer.
@Suite("Re-timed audio in an AVAssetWriter movie", .serialized)
struct AudioRetimingWriterTests {
    @Test("re-timed microphone buffers (one entry, the whole buffer's duration) make an AAC track of the right length (ffprobe)")
    func retimedAudioTrack() async throws {
        let url = AssetWriterFixture.temporaryURL("mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let audio = AVAssetWriterInput(
            mediaType: .audio, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1])
        audio.expectsMediaDataInRealTime = false
        writer.add(audio)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        // Two seconds of 1024-frame buffers captured from 100 s on, moved back to 0 as a
        // recorder that paused for 100 s does.
        let offset = CMTime(value: 100, timescale: 1)
        var written = 0
        while written < 96_000 {
            let count = min(1024, 96_000 - written)
            let captured = AssetWriterFixture.audioSample(
                AssetWriterFixture.tone(first: written, count: count), at: offset + CMTime(value: Int64(written), timescale: 48_000))
            var timing = CMSampleTimingInfo(
                duration: CMSampleBufferGetDuration(captured), presentationTimeStamp: CMSampleBufferGetPresentationTimeStamp(captured) - offset,
                decodeTimeStamp: .invalid)
            var retimed: CMSampleBuffer?
            #expect(CMSampleBufferCreateCopyWithNewTiming(
                allocator: kCFAllocatorDefault, sampleBuffer: captured, sampleTimingEntryCount: 1, sampleTimingArray: &timing,
                sampleBufferOut: &retimed) == noErr)
            let copy = try #require(retimed)
            #expect(copy.numSamples == count)
            for _ in 0..<2000 where !audio.isReadyForMoreMediaData { try await Task.sleep(for: .milliseconds(5)) }
            #expect(audio.append(copy))
            written += count
        }
        audio.markAsFinished()
        await writer.finishWriting()
        #expect(writer.status == .completed)
        let probe = try AssetWriterFixture.probe(url)
        let track = try #require(AssetWriterFixture.stream(probe, "audio"))
        #expect(track["codec_name"] as? String == "aac")
        let duration = try #require(AssetWriterFixture.number(track["duration"]))
        #expect(abs(duration - 2.0) < 0.05, "2 s of sound, not \(duration) s")
        let start = AssetWriterFixture.number(track["start_time"]) ?? 0
        #expect(abs(start) < 0.05, "the track starts at the re-timed 0, not at \(start) s")
    }
}
