import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// The photo output's raises audited against AVCapturePhotoOutput.h (docs/avfoundation-api.md,
/// section 9): rules the header states and OpenCapture lacked, rules it had with no header
/// sentence behind them (now gone), and Apple's exact reason texts.
@Suite("Photo output raises follow Apple's header", .serialized)
struct PhotoHeaderRulesTests {
    @Test("processedFileType must support the format's pixel format (supportedPhotoPixelFormatTypesForFileType:)")
    func pixelFormatMustSuitTheFileType() throws {
        let (session, output) = ResponsiveCaptureExitTests.connected()
        session.startRunning()
        defer { session.stopRunning() }
        let settings = AVCapturePhotoSettings(
            rawPixelFormatType: 0, rawFileType: nil,
            processedFormat: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA], processedFileType: .jpg)
        #expect(output.supportedPhotoPixelFormatTypes(for: .jpg).isEmpty)
        let thrown = #expect(throws: AVCaptureException.self) { try output.capturePhotoChecked(with: settings, delegate: PhotoRecorder()) }
        #expect(thrown?.name == .invalidArgument)
        #expect(thrown?.reason.contains("supportedPhotoPixelFormatTypesForFileType:") == true, "\(thrown?.reason ?? "none")")
    }

    @Test("a quality above maxPhotoQualityPrioritization raises with Apple's reason text")
    func qualityReason() throws {
        let (session, output) = ResponsiveCaptureExitTests.connected()
        session.startRunning()
        defer { session.stopRunning() }
        let settings = AVCapturePhotoSettings()
        settings.photoQualityPrioritization = .quality
        let thrown = #expect(throws: AVCaptureException.self) { try output.capturePhotoChecked(with: settings, delegate: PhotoRecorder()) }
        #expect(thrown?.reason == "*** -[AVCapturePhotoOutput capturePhotoWithSettings:delegate:] settings.photoQualityPrioritization must not be higher than self.maxPhotoQualityPrioritization")
    }

    @Test("Live Photo switches the header gives no exception for: kept without a raise where Live Photos are unsupported")
    func liveSwitchesWithoutExceptions() {
        let output = AVCapturePhotoOutput()  // no camera: Live Photos unsupported
        #expect(!output.isLivePhotoCaptureSupported)
        output.preservesLivePhotoCaptureSuspendedOnSessionStop = true
        #expect(output.preservesLivePhotoCaptureSuspendedOnSessionStop)
        output.isLivePhotoAutoTrimmingEnabled = true
        #expect(!output.isLivePhotoAutoTrimmingEnabled, "reads false while unsupported")
    }

    @Test("suspending Live Photo capture while the session is not running fails, leaving it false")
    func suspendingWhileStopped() {
        let (session, output) = ResponsiveCaptureExitTests.connected()
        output.isLivePhotoCaptureEnabled = true
        output.isLivePhotoCaptureSuspended = true
        #expect(!output.isLivePhotoCaptureSuspended, "not running: reverted to NO")
        session.startRunning()
        defer { session.stopRunning() }
        output.isLivePhotoCaptureSuspended = true
        #expect(output.isLivePhotoCaptureSuspended)
    }

    @Test func autoTrimmingWithoutSupportDoesNotEndTheProcess() async {
        await #expect(processExitsWith: .success) {
            let output = AVCapturePhotoOutput()
            output.isLivePhotoAutoTrimmingEnabled = true
            output.preservesLivePhotoCaptureSuspendedOnSessionStop = true
        }
    }
}
