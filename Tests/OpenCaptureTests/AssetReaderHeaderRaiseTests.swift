import Foundation
import Testing

@testable import OpenCapture

/// Asset-reader raises carry the exception Apple's runtime raises (docs/avfoundation-api.md
/// section 9): reading out of order is an NSInternalInconsistencyException, not an
/// NSInvalidArgumentException.
@Suite("Asset reader raises follow Apple's runtime")
struct AssetReaderHeaderRaiseTests {
    /// A short sine in a WAV file, made by ffmpeg in the child process.
    static func audioURL() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oc-reader-raise-\(UUID().uuidString).wav")
        _ = try? AssetWriterFixture.run("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=duration=0.02", "-y", url.path])
        return url
    }

    @Test("startReading twice: NSInternalInconsistencyException")
    func startReadingTwice() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let reader = try! AVAssetReader(asset: AVURLAsset(url: AssetReaderHeaderRaiseTests.audioURL()))
            reader.startReading()
            reader.startReading()
        }
        #expect(AssetReaderExitTests.message(result).contains(
            "'NSInternalInconsistencyException', reason: '*** -[AVAssetReader startReading] cannot be called again after reading has already started'"))
    }

    @Test("a track output's copyNextSampleBuffer before startReading: NSInternalInconsistencyException")
    func trackOutputBeforeStartReading() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let asset = AVURLAsset(url: AssetReaderHeaderRaiseTests.audioURL())
            let output = AVAssetReaderTrackOutput(track: asset.tracks[0], outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM])
            let reader = try! AVAssetReader(asset: asset)
            reader.add(output)
            _ = output.copyNextSampleBuffer()
        }
        #expect(AssetReaderExitTests.message(result).contains(
            "'NSInternalInconsistencyException', reason: '*** -[AVAssetReaderTrackOutput copyNextSampleBuffer] cannot copy next sample buffer before adding this output"))
    }

    @Test("an audio mix output's copyNextSampleBuffer in no reader: NSInternalInconsistencyException")
    func audioMixOutputInNoReader() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let asset = AVURLAsset(url: AssetReaderHeaderRaiseTests.audioURL())
            _ = AVAssetReaderAudioMixOutput(audioTracks: asset.tracks, audioSettings: nil).copyNextSampleBuffer()
        }
        #expect(AssetReaderExitTests.message(result).contains(
            "'NSInternalInconsistencyException', reason: '*** -[AVAssetReaderAudioMixOutput copyNextSampleBuffer] cannot copy next sample buffer before adding this output"))
    }
}
