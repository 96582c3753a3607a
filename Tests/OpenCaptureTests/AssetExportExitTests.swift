import Foundation
import Testing

@testable import OpenCapture

/// Export-session and composition misuse ends the process with Apple's exception.
@Suite("Asset export exceptions end the process")
struct AssetExportExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    static func session() -> AVAssetExportSession {
        AVAssetExportSession(asset: AVMutableComposition(), presetName: AVAssetExportPresetPassthrough)!
    }

    @Test func exportWithoutFileType() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AssetExportExitTests.session()
            session.outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("oc-exit-\(UUID().uuidString).mov")
            session.exportAsynchronously {}
        }
        #expect(Self.message(result).contains("'NSInternalInconsistencyException', reason: '*** -[AVAssetExportSession exportAsynchronouslyWithCompletionHandler:] Must set output file type'"))
    }

    @Test func exportWithoutURL() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AssetExportExitTests.session()
            session.outputFileType = .mov
            session.exportAsynchronously {}
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVAssetExportSession exportAsynchronouslyWithCompletionHandler:] outputURL must not be nil'"))
    }

    @Test func exportTwice() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AssetExportExitTests.session()
            session.outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("oc-exit-\(UUID().uuidString).mov")
            session.outputFileType = .mov
            session.exportAsynchronously {}
            session.exportAsynchronously {}
        }
        #expect(Self.message(result).contains("'NSInternalInconsistencyException', reason: '*** -[AVAssetExportSession exportAsynchronouslyWithCompletionHandler:] Cannot call exportAsynchronouslyWithCompletionHandler: more than once'"))
    }

    @Test func unsupportedFileType() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVAssetExportSession(asset: AVMutableComposition(), presetName: AVAssetExportPresetAppleM4A)!
            session.outputFileType = .mov
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVAssetExportSession setOutputFileType:] Invalid output file type 'com.apple.quicktime-movie' for preset 'AVAssetExportPresetAppleM4A'"))
    }

    @Test func segmentsNotContiguous() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let track = AVMutableComposition().addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)!
            let late = CMTimeRange(start: CMTime(value: 1, timescale: 1), duration: CMTime(value: 1, timescale: 1))
            track.segments = [AVCompositionTrackSegment(timeRange: late)]
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVMutableCompositionTrack setSegments:]"))
    }
}
