import Foundation
import Testing
@testable import OpenCapture

/// Focus, zoom and torch misuse ends the process with Apple's exception and message.
@Suite("Focus, zoom and torch exceptions end the process")
struct FocusZoomTorchExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    static let prefix = "*** Terminating app due to uncaught exception"

    // MARK: Focus

    @Test func focusModeWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.focusMode = .autoFocus
        }
        #expect(Self.message(result).contains("\(Self.prefix) 'NSGenericException', reason: '*** -[AVCaptureDevice setFocusMode:] May not be called without first successfully calling -lockForConfiguration:'"))
    }

    @Test func unsupportedFocusModeOnTheUltraWide() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:back-ultrawide")!
            try? device.lockForConfiguration()
            device.focusMode = .continuousAutoFocus
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setFocusMode:] Unsupported focus mode 2 - use isFocusModeSupported:'"))
    }

    @Test func focusPointOfInterestWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.focusPointOfInterest = CGPoint(x: 0.2, y: 0.2)
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setFocusPointOfInterest:]"))
    }

    @Test func focusPointOfInterestUnsupported() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:back-ultrawide")!
            try? device.lockForConfiguration()
            device.focusPointOfInterest = CGPoint(x: 0.2, y: 0.2)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setFocusPointOfInterest:] Setting focusPointOfInterest is not supported by this device."))
    }

    @Test func lensPositionOutOfRange() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.setFocusModeLocked(lensPosition: 1.5, completionHandler: nil)
        }
        #expect(Self.message(result).contains("'NSRangeException', reason: '*** -[AVCaptureDevice setFocusModeLockedWithLensPosition:completionHandler:] lensPosition 1.5 is out of range [0, 1]"))
    }

    @Test func negativeLensPosition() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.setFocusModeLocked(lensPosition: -0.1, completionHandler: nil)
        }
        #expect(Self.message(result).contains("'NSRangeException'"))
    }

    @Test func customLensPositionOnAFixedFocusCamera() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:back-ultrawide")!
            try? device.lockForConfiguration()
            device.setFocusModeLocked(lensPosition: 0.5, completionHandler: nil)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setFocusModeLockedWithLensPosition:completionHandler:] Setting a custom lens position is not supported by this device."))
    }

    @Test func lensPositionWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.setFocusModeLocked(lensPosition: 0.5, completionHandler: nil)
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setFocusModeLockedWithLensPosition:completionHandler:] May not be called"))
    }

    @Test func rangeRestrictionUnsupported() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:back-ultrawide")!
            try? device.lockForConfiguration()
            device.autoFocusRangeRestriction = .near
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setAutoFocusRangeRestriction:]"))
    }

    @Test func rangeRestrictionWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.autoFocusRangeRestriction = .far
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setAutoFocusRangeRestriction:]"))
    }

    @Test func smoothAutoFocusUnsupported() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:back-ultrawide")!
            try? device.lockForConfiguration()
            device.isSmoothAutoFocusEnabled = true
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setSmoothAutoFocusEnabled:]"))
    }

    @Test func smoothAutoFocusWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.isSmoothAutoFocusEnabled = true
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setSmoothAutoFocusEnabled:]"))
    }

    // MARK: Zoom

    @Test func zoomBelowOne() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.videoZoomFactor = 0.5
        }
        #expect(Self.message(result).contains("'NSRangeException', reason: '*** -[AVCaptureDevice setVideoZoomFactor:] videoZoomFactor 0.5 is out of range [1"))
    }

    @Test func zoomAboveTheFormatsMaximum() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.videoZoomFactor = device.activeFormat.videoMaxZoomFactor + 1
        }
        #expect(Self.message(result).contains("'NSRangeException', reason: '*** -[AVCaptureDevice setVideoZoomFactor:] videoZoomFactor"))
    }

    @Test func zoomWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.videoZoomFactor = 2
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setVideoZoomFactor:] May not be called"))
    }

    @Test func rampOutOfRange() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.ramp(toVideoZoomFactor: 0.9, withRate: 1)
        }
        #expect(Self.message(result).contains("'NSRangeException', reason: '*** -[AVCaptureDevice rampToVideoZoomFactor:withRate:] videoZoomFactor 0.9 is out of range"))
    }

    @Test func rampWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.ramp(toVideoZoomFactor: 2, withRate: 1)
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice rampToVideoZoomFactor:withRate:] May not be called"))
    }

    @Test func cancelRampWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.cancelVideoZoomRamp()
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice cancelVideoZoomRamp] May not be called"))
    }

    // MARK: Torch

    @Test func torchOnTheFrontCamera() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:front-wide")!
            try? device.lockForConfiguration()
            device.torchMode = .on
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setTorchMode:] Unsupported torch mode 1 - use isTorchModeSupported:'"))
    }

    @Test func torchModeWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.torchMode = .on
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setTorchMode:] May not be called"))
    }

    @Test func torchLevelZero() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            try? device.setTorchModeOn(level: 0)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setTorchModeOnWithLevel:error:] torchLevel 0.0 must be greater than 0.0 and less than or equal to 1.0"))
    }

    @Test func torchLevelAboveOne() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            try? device.setTorchModeOn(level: 1.5)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setTorchModeOnWithLevel:error:] torchLevel 1.5"))
    }

    @Test func torchLevelWithoutATorch() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:front-wide")!
            try? device.lockForConfiguration()
            try? device.setTorchModeOn(level: 0.5)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setTorchModeOnWithLevel:error:] Torch is not supported by this device"))
    }

    @Test func torchLevelWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            try? AVCaptureDevice.default(for: .video)!.setTorchModeOn(level: 0.5)
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setTorchModeOnWithLevel:error:] May not be called"))
    }
}
