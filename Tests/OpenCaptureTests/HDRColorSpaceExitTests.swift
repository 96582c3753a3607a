import Foundation
import Testing
@testable import OpenCapture

/// Video HDR and colour-space misuse ends the process with Apple's message, as on iOS.
@Suite("HDR and colour-space exceptions end the process")
struct HDRColorSpaceExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func videoHDRWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.isVideoHDREnabled = false
        }
        #expect(Self.message(result).contains("*** Terminating app due to uncaught exception 'NSGenericException', reason: '*** -[AVCaptureDevice setVideoHDREnabled:] May not be called without first successfully calling -lockForConfiguration:"))
    }

    @Test func automaticVideoHDRWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.automaticallyAdjustsVideoHDREnabled = false
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setAutomaticallyAdjustsVideoHDREnabled:] May not be called without first"))
    }

    @Test func videoHDRWhileAutomatic() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.isVideoHDREnabled = true
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setVideoHDREnabled:] May not be called while automaticallyAdjustsVideoHDREnabled is YES'"))
    }

    @Test func videoHDROnAFormatWithoutIt() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.activeFormat = device.formats.first { !$0.isVideoHDRSupported }!
            device.automaticallyAdjustsVideoHDREnabled = false
            device.isVideoHDREnabled = true
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setVideoHDREnabled:] Not supported by the active format - use activeFormat.isVideoHDRSupported'"))
    }

    @Test func colourSpaceWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.activeColorSpace = .sRGB
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setActiveColorSpace:] May not be called without first"))
    }

    @Test func unsupportedColourSpace() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.activeFormat = device.formats.first { !$0.supportedColorSpaces.contains(.P3_D65) }!
            device.activeColorSpace = .P3_D65
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setActiveColorSpace:] Not supported - use activeFormat.supportedColorSpaces'"))
    }
}
