import Foundation
import Testing

@testable import OpenCapture

/// Apple's exceptions for metadata outputs, each in a child process.
@Suite("Metadata output exceptions")
struct MetadataExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test("an unavailable type (bodies on Linux) raises NSInvalidArgumentException")
    func unavailableType() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-wide")!))
            let output = AVCaptureMetadataOutput()
            session.addOutput(output)
            output.metadataObjectTypes = [.qr, .humanBody]
        }
        #expect(Self.message(result).contains(
            "'NSInvalidArgumentException', reason: '*** -[AVCaptureMetadataOutput setMetadataObjectTypes:] Unsupported type found - use -availableMetadataObjectTypes'"))
    }

    @Test("an unknown type, or any type before the output is connected, raises NSInvalidArgumentException")
    func unknownType() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureMetadataOutput().metadataObjectTypes = [AVMetadataObject.ObjectType(rawValue: "org.example.Nope")]
        }
        #expect(Self.message(result).contains("Unsupported type found - use -availableMetadataObjectTypes"))
    }

    @Test("a rect of interest outside 0...1 raises NSInvalidArgumentException")
    func badRectOfInterest() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureMetadataOutput().rectOfInterest = CGRect(x: -0.1, y: 0, width: 1, height: 1)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureMetadataOutput setRectOfInterest:]"))
    }
}
