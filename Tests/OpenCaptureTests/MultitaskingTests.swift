import Foundation
import Testing
import OpenCapture

/// Multitasking camera access answers as on an iPhone: unsupported, off, and refused.
@Suite("Multitasking camera access")
struct MultitaskingTests {
    @Test func unsupportedAndOff() throws {
        let session = AVCaptureSession()
        #expect(!session.isMultitaskingCameraAccessSupported)
        #expect(!session.isMultitaskingCameraAccessEnabled)
        session.isMultitaskingCameraAccessEnabled = false
        #expect(!session.isMultitaskingCameraAccessEnabled)
        #expect(throws: AVCaptureException(
            .invalidArgument,
            "*** -[AVCaptureSession setMultitaskingCameraAccessEnabled:] Multitasking camera access is not supported - use -isMultitaskingCameraAccessSupported")) {
            try session.setMultitaskingCameraAccessEnabled(true)
        }
        #expect(!session.isMultitaskingCameraAccessEnabled)
    }

    @Test func enablingRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureSession().isMultitaskingCameraAccessEnabled = true
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains(
            "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '*** -[AVCaptureSession setMultitaskingCameraAccessEnabled:]"))
    }
}
