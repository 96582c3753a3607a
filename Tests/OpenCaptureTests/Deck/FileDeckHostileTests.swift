import Foundation
import Testing

@testable import OpenCapture

/// Files made to break a deck (issue 26), through the API: each is a clear `AVError` from
/// `fileDeck(url:)` or plays, never a trap.
@Suite("File deck hostile files")
struct FileDeckHostileTests {
    /// An MP4 at 2,500,000.5 fps (timescale 5000001, samples of 2 ticks: 'stts' patched)
    /// trapped converting its rate to a frame duration; now it is `.fileFailedToParse`.
    @Test func frameRateNoCameraHasIsAnAVError() throws {
        let url = try DeckFixture.clip("fast.mp4", frames: 5, ["-c:v", "libx264", "-preset", "ultrafast", "-video_track_timescale", "5000001"])
        var data = try Data(contentsOf: url)
        let stts = try #require(data.firstRange(of: Data("stts".utf8)))
        data.replaceSubrange((stts.upperBound + 12)..<(stts.upperBound + 16), with: [0, 0, 0, 2])
        try data.write(to: url)
        do {
            _ = try AVCaptureDevice.fileDeck(url: url)
            Issue.record("a deck at 2,500,000.5 fps was made")
        } catch let error as AVError {
            #expect(error.code == .fileFailedToParse)
            #expect(error.localizedDescription.contains("2500000.5 fps"), "\(error.localizedDescription)")
        }
    }

    /// Rates from files reach `AVFrameRateRange`: every `Double` gives a duration, exact
    /// where a 32-bit timescale holds it, nearest otherwise, invalid when meaningless.
    @Test func frameDurationForAnyRate() {
        #expect(AVFrameRateRange.duration(forRate: 30) == CMTime(value: 1, timescale: 30))
        #expect(AVFrameRateRange.duration(forRate: 29.97) == CMTime(value: 1000, timescale: 29970))
        let fast = AVFrameRateRange.duration(forRate: 2_500_000.5)
        #expect(fast.isNumeric && abs(fast.seconds - 1 / 2_500_000.5) < 1e-9, "\(fast)")
        #expect(AVFrameRateRange.duration(forRate: 3e9).isNumeric)
        #expect(AVFrameRateRange.duration(forRate: 0.0001).seconds == 10_000)
        #expect(AVFrameRateRange.duration(forRate: 1e-300) == .positiveInfinity)
        for meaningless in [0, -1, Double.nan, Double.infinity] {
            #expect(!AVFrameRateRange.duration(forRate: meaningless).isValid, "\(meaningless)")
        }
    }

    /// A raw H.264 elementary stream (no container, no timestamps) was "no decodable
    /// frame"; it plays as ffmpeg decodes it, 1/25 s apart, forwards and backwards.
    @Test(arguments: [Float(1), -1])
    func rawElementaryStreamPlays(speed: Float) throws {
        let url = try DeckFixture.clip("raw.h264", frames: 10, ["-c:v", "libx264", "-preset", "ultrafast", "-g", "4", "-pix_fmt", "yuv420p"])
        let expected = try DeckFixture.hashes(url, pixelFormat: "yuv420p")
        try #require(expected.count == 10)
        let device = try DeckFixture.deck(url, speed: speed)
        #expect(device.deck?.frameRate == 25)
        let collector = DeckCollector()
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, collector: collector)
        defer { session.stopRunning() }
        collector.wait(for: 10)
        DeckFixture.waitForStop(device, collector)
        #expect(collector.hashes == (speed > 0 ? expected : expected.reversed()))
        let gaps = zip(collector.times.dropFirst(), collector.times).map { ($0 - $1).seconds }
        #expect(gaps.allSatisfy { abs($0 - 0.04) < 1e-6 }, "\(gaps)")
    }
}
