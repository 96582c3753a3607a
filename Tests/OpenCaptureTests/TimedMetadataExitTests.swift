import Foundation
import Testing

@testable import OpenCapture

/// Apple's exceptions for timed metadata, each in a child process, checked by the message.
@Suite("Timed metadata: Apple's exceptions")
struct TimedMetadataExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func orientationTrackForAConnectionOfAnotherOutput() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-wide")!))
            let data = AVCaptureVideoDataOutput()
            session.addOutput(data)
            let movie = AVCaptureMovieFileOutput()
            movie.setRecordsVideoOrientationAndMirroringChangesAsMetadataTrack(true, for: data.connection(with: .video)!)
        }
        #expect(Self.message(result).contains(
            "'NSInvalidArgumentException', reason: '*** -[AVCaptureMovieFileOutput setRecordsVideoOrientationAndMirroringChangesAsMetadataTrack:forConnection:]"))
    }

    @Test func orientationTrackQueryForAConnectionOfAnotherOutput() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-wide")!))
            let data = AVCaptureVideoDataOutput()
            session.addOutput(data)
            _ = AVCaptureMovieFileOutput().recordsVideoOrientationAndMirroringChangesAsMetadataTrack(for: data.connection(with: .video)!)
        }
        #expect(Self.message(result).contains("recordsVideoOrientationAndMirroringChangesAsMetadataTrackForConnection:] connection"))
    }

    @Test func writerMetadataAdaptorOverAVideoInput() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVAssetWriterInputMetadataAdaptor(assetWriterInput: AVAssetWriterInput(mediaType: .video, outputSettings: nil))
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVAssetWriterInputMetadataAdaptor initWithAssetWriterInput:]"))
    }

    @Test func trackAssociationOutsideAWriter() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let a = AVAssetWriterInput(mediaType: .metadata, outputSettings: nil)
            let b = AVAssetWriterInput(mediaType: .video, outputSettings: nil)
            a.addTrackAssociation(withTrackOf: b, type: AVAssetTrack.AssociationType.metadataReferent.rawValue)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVAssetWriterInput addTrackAssociationWithTrackOfInput:type:]"))
    }

    @Test func metadataGroupWithoutASession() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("oc-tmd-\(UUID().uuidString).mov")
            let writer = try! AVAssetWriter(outputURL: url, fileType: .mov)
            let group = AVTimedMetadataGroup(items: [], timeRange: CMTimeRange(start: .zero, duration: .invalid))
            let input = AVAssetWriterInput(mediaType: .metadata, outputSettings: nil, sourceFormatHint: group.copyFormatDescription())
            writer.add(AVAssetWriterInput(mediaType: .video, outputSettings: AssetWriterTests.videoSettings(.h264)))
            writer.add(input)
            precondition(writer.startWriting())
            _ = AVAssetWriterInputMetadataAdaptor(assetWriterInput: input).append(group)
        }
        #expect(Self.message(result).contains("-[AVAssetWriterInputMetadataAdaptor appendTimedMetadataGroup:] Cannot append timed metadata group: Must start a session"))
    }
}
