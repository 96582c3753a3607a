import Foundation
import Testing

@testable import OpenCapture

/// Asset-reader misuse ends the process with Apple's exception.
@Suite("Asset reader exceptions end the process")
struct AssetReaderExitTests {
    /// A one-frame H.264 file shared by the exit tests (made once, in the parent).
    static let url: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oc-reader-exit.mp4")
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = try? AssetWriterFixture.run(
                "/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-frames:v", "1", "-c:v", "libx264", "-y", url.path])
        }
        return url
    }()

    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func addOutputAfterStartReading() async {
        _ = Self.url
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let asset = AVURLAsset(url: AssetReaderExitTests.url)
            let reader = try! AVAssetReader(asset: asset)
            reader.startReading()
            reader.add(AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: [:]))
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVAssetReader addOutput:] cannot add a new output after reading has started'"))
    }

    @Test func copyNextSampleBufferBeforeStartReading() async {
        _ = Self.url
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let asset = AVURLAsset(url: AssetReaderExitTests.url)
            let reader = try! AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: [:])
            reader.add(output)
            _ = output.copyNextSampleBuffer()
        }
        #expect(Self.message(result).contains("*** -[AVAssetReaderTrackOutput copyNextSampleBuffer] cannot copy next sample buffer before adding this output to an instance of AVAssetReader (using -addOutput:) and calling -startReading on that asset reader"))
    }

    @Test func startReadingTwice() async {
        _ = Self.url
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let reader = try! AVAssetReader(asset: AVURLAsset(url: AssetReaderExitTests.url))
            reader.startReading()
            reader.startReading()
        }
        #expect(Self.message(result).contains("*** -[AVAssetReader startReading] cannot be called again after reading has already started"))
    }

    @Test func compressedAudioSettings() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("oc-reader-exit-\(UUID().uuidString).wav")
            _ = try? AssetWriterFixture.run(
                "/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=duration=0.02", "-y", url.path])
            let asset = AVURLAsset(url: url)
            _ = AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC])
        }
        #expect(Self.message(result).contains("AVAssetReaderTrackOutput does not currently support AVFormatIDKey values other than kAudioFormatLinearPCM"))
    }
}
