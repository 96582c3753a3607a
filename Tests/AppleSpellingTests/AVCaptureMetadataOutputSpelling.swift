// AVCaptureMetadataOutput.h (iOS 18 SDK), spelled as iOS code spells it.
import AVFoundation
import Foundation
import Testing

/// A delegate as an app writes one.
final class SpellingMetadataDelegate: NSObject, AVCaptureMetadataOutputObjectsDelegate {
    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
        for case let code as AVMetadataMachineReadableCodeObject in metadataObjects { _ = code.stringValue }
    }
}

/// Touches every declaration of AVCaptureMetadataOutput.h; compiled, never called.
func spellAVCaptureMetadataOutput(_ delegate: SpellingMetadataDelegate) {
    let output: AVCaptureMetadataOutput = AVCaptureMetadataOutput()
    let asOutput: AVCaptureOutput = output
    output.setMetadataObjectsDelegate(delegate, queue: DispatchQueue.main)
    output.setMetadataObjectsDelegate(nil, queue: nil)
    let current: (any AVCaptureMetadataOutputObjectsDelegate)? = output.metadataObjectsDelegate
    let queue: DispatchQueue? = output.metadataObjectsCallbackQueue
    let available: [AVMetadataObject.ObjectType] = output.availableMetadataObjectTypes
    output.metadataObjectTypes = [.qr, .ean13]
    let types: [AVMetadataObject.ObjectType]! = output.metadataObjectTypes
    output.rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
    let rect: CGRect = output.rectOfInterest
    _ = (asOutput, current, queue, available, types, rect)
}

@Suite("AVCaptureMetadataOutput spelling", .serialized)
struct AVCaptureMetadataOutputSpellingTests {
    @Test("a metadata output in a session with a camera offers QR codes, takes its delegate and queue, looks everywhere")
    func metadataOutputInSession() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        let session = AVCaptureSession()
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureMetadataOutput()
        #expect(output.availableMetadataObjectTypes.isEmpty)
        #expect(session.canAddOutput(output))
        session.addOutput(output)
        #expect(output.availableMetadataObjectTypes.contains(.qr))
        #expect(!output.availableMetadataObjectTypes.contains(.humanBody))
        let delegate = SpellingMetadataDelegate()
        let queue = DispatchQueue(label: "metadata")
        output.setMetadataObjectsDelegate(delegate, queue: queue)
        #expect(output.metadataObjectsDelegate === delegate)
        #expect(output.metadataObjectsCallbackQueue === queue)
        output.metadataObjectTypes = [.qr, .ean13, .code128]
        #expect(output.metadataObjectTypes == [.qr, .ean13, .code128])
        #expect(output.rectOfInterest == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(output.connection(with: .metadataObject) != nil)
    }
}
