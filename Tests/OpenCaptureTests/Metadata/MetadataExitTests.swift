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

    /// AVCaptureMetadataOutput.h names no exception for rectOfInterest ("Metadata objects
    /// whose bounds do not intersect with the rectOfInterest will not be returned"): a
    /// rectangle outside 0...1, or not a number, is kept.
    @Test("a rect of interest outside 0...1 does not raise and is kept")
    func rectOfInterestOutsideThePicture() async {
        await #expect(processExitsWith: .success) {
            let output = AVCaptureMetadataOutput()
            for rect in [CGRect(x: -0.1, y: 0, width: 1, height: 1), CGRect(x: 2, y: 2, width: 1, height: 1),
                         CGRect(x: 0, y: 0, width: 1e300, height: 1e300)] {
                output.rectOfInterest = rect
                if output.rectOfInterest != rect { exit(1) }
            }
            output.rectOfInterest = CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)
            if !output.rectOfInterest.origin.x.isNaN { exit(1) }
        }
    }
}
