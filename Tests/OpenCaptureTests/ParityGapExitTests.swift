import Foundation
import Testing

@testable import OpenCapture

/// Apple's exceptions for the header-walk additions (docs/parity-gaps.md), each in a child
/// process, checked by the message it printed.
@Suite("Header parity gaps: Apple's exceptions")
struct ParityGapExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func activeDepthDataFormatWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice(uniqueID: "sim:back-wide")!.activeDepthDataFormat = nil
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setActiveDepthDataFormat:] May not be called without first successfully calling -lockForConfiguration:"))
    }

    @Test func activeDepthDataFormatNotADepthFormat() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:back-wide")!
            try? device.lockForConfiguration()
            device.activeDepthDataFormat = device.formats[0]
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setActiveDepthDataFormat:] Unsupported format"))
    }

    @Test func activeDepthDataMinFrameDurationOutOfRange() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:back-wide")!
            try? device.lockForConfiguration()
            device.activeDepthDataMinFrameDuration = CMTime(value: 1, timescale: 30)
        }
        #expect(Self.message(result).contains("'NSRangeException', reason: '*** -[AVCaptureDevice setActiveDepthDataMinFrameDuration:]"))
    }

    @Test func scaleAndCropFactorOutOfRange() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            let still = AVCaptureStillImageOutput()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-wide")!))
            session.addOutput(still)
            still.connection(with: .video)!.videoScaleAndCropFactor = 17
        }
        #expect(Self.message(result).contains("'NSRangeException', reason: '*** -[AVCaptureConnection setVideoScaleAndCropFactor:] videoScaleAndCropFactor 17.0 is out of range [1, 16.0]"))
    }

    @Test func intrinsicMatrixDeliveryUnsupported() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            let output = AVCaptureVideoDataOutput()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-wide")!))
            session.addOutput(output)
            output.connection(with: .video)!.isCameraIntrinsicMatrixDeliveryEnabled = true
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureConnection setCameraIntrinsicMatrixDeliveryEnabled:]"))
    }

    @Test func synchronizerWithoutOutputs() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVCaptureDataOutputSynchronizer(dataOutputs: [])
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDataOutputSynchronizer initWithDataOutputs:] dataOutputs must contain at least one data output"))
    }

    @Test func synchronizerWithAMovieOutput() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVCaptureDataOutputSynchronizer(dataOutputs: [AVCaptureVideoDataOutput(), AVCaptureMovieFileOutput()])
        }
        #expect(Self.message(result).contains("AVCaptureMovieFileOutput is not a data output"))
    }

    @Test func synchronizerDelegateWithoutQueue() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            final class Delegate: NSObject, AVCaptureDataOutputSynchronizerDelegate {
                func dataOutputSynchronizer(_ synchronizer: AVCaptureDataOutputSynchronizer, didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection) {}
            }
            let delegate = Delegate()
            AVCaptureDataOutputSynchronizer(dataOutputs: [AVCaptureVideoDataOutput()]).setDelegate(delegate, queue: nil)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDataOutputSynchronizer setDelegate:queue:]"))
    }

    @Test func metadataInputConnectionToDataOutput() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            let movie = AVCaptureVideoDataOutput()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-wide")!))
            session.addOutput(movie)
            let input = AVCaptureMetadataInput(formatDescription: .boxedMetadata(), clock: CMClockGetHostTimeClock())
            session.addInputWithNoConnections(input)
            session.addConnection(AVCaptureConnection(inputPorts: input.ports, output: movie))
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureSession addConnection:]"))
    }

    @Test func metadataInputWithVideoDescription() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let video = CMFormatDescription(videoFormat: kCVPixelFormatType_32BGRA, width: 16, height: 16)
            _ = AVCaptureMetadataInput(formatDescription: video, clock: CMClockGetHostTimeClock())
        }
        #expect(Self.message(result).contains("formatDescription must be a boxed metadata format description"))
    }
}
