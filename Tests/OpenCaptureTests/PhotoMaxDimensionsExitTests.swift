import Foundation
import Testing

@testable import OpenCapture

/// `AVCapturePhotoOutput.maxPhotoDimensions` takes only a size the source device's active
/// format lists in `supportedMaxPhotoDimensions` (AVCapturePhotoOutput.h, iOS 16: "The
/// dimensions set must match one of the dimensions returned by
/// AVCaptureDeviceFormat.supportedMaxPhotoDimensions for the current active format"); any
/// other raises NSInvalidArgumentException with Apple's reason.
@Suite("Photo output maxPhotoDimensions raises as Apple's does")
struct PhotoMaxDimensionsExitTests {
    /// A session with the default camera feeding a photo output.
    static func connectedOutput() throws -> (AVCaptureSession, AVCapturePhotoOutput, AVCaptureDevice) {
        let device = try #require(AVCaptureDevice.default(for: .video))
        let session = AVCaptureSession()
        let input = try AVCaptureDeviceInput(device: device)
        try #require(session.canAddInput(input))
        session.addInput(input)
        let output = AVCapturePhotoOutput()
        try #require(session.canAddOutput(output))
        session.addOutput(output)
        return (session, output, device)
    }

    @Test func aSizeTheActiveFormatDoesNotListEndsTheProcess() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (session, output, _) = try Self.connectedOutput()
            withExtendedLifetime(session) { output.maxPhotoDimensions = CMVideoDimensions(width: 123, height: 45) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("'NSInvalidArgumentException', reason: '*** -[AVCapturePhotoOutput setMaxPhotoDimensions:] maxPhotoDimensions must match one of the AVVideoDimension found in the video source device's active format's supportedMaxPhotoDimensions'"))
    }

    @Test func theCheckedFormThrowsAndKeepsTheSize() throws {
        let (session, output, device) = try Self.connectedOutput()
        defer { withExtendedLifetime(session) {} }
        let before = output.maxPhotoDimensions
        let exception = #expect(throws: AVCaptureException.self) {
            try output.setMaxPhotoDimensionsChecked(CMVideoDimensions(width: 123, height: 45))
        }
        #expect(exception?.name == .invalidArgument)
        #expect(output.maxPhotoDimensions == before)
        for size in device.activeFormat.supportedMaxPhotoDimensions {
            try output.setMaxPhotoDimensionsChecked(size)
            #expect(output.maxPhotoDimensions == size)
        }
    }

    /// Listed sizes are taken by the plain setter without a trap; an output with no source
    /// device has no active format to match and keeps any size.
    @Test func listedSizesAndUnconnectedOutputsDoNotRaise() async {
        await #expect(processExitsWith: .success) {
            let (session, output, device) = try Self.connectedOutput()
            try withExtendedLifetime(session) {
                try #require(output.connection(with: .video) != nil)
                for size in device.activeFormat.supportedMaxPhotoDimensions {
                    output.maxPhotoDimensions = size
                    if output.maxPhotoDimensions != size { exit(1) }
                }
            }
            let alone = AVCapturePhotoOutput()
            alone.maxPhotoDimensions = CMVideoDimensions(width: 123, height: 45)
            if alone.maxPhotoDimensions != CMVideoDimensions(width: 123, height: 45) { exit(2) }
        }
    }
}
