import Foundation
import Testing
@testable import OpenCapture

/// Where iOS raises an Objective-C exception, the process ends with Apple's message.
/// Each test runs the misuse in a child process and reads what it printed.
@Suite("Apple's exceptions end the process")
struct ExceptionExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func activeFormatWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            device.activeFormat = device.formats[0]
        }
        let text = Self.message(result)
        #expect(text.contains("*** Terminating app due to uncaught exception 'NSGenericException', reason: '*** -[AVCaptureDevice setActiveFormat:]"))
    }

    @Test func unsupportedFrameDuration() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 1000)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setActiveVideoMinFrameDuration:] Unsupported frame duration"))
    }

    @Test func frameDurationWithoutLock() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            AVCaptureDevice.default(for: .video)!.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 30)
        }
    }

    @Test func mirroringWhileAutomatic() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            let output = AVCaptureVideoDataOutput()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!))
            session.addOutput(output)
            output.connection(with: .video)!.isVideoMirrored = true
        }
        #expect(Self.message(result).contains("Cannot be set when automaticallyAdjustsVideoMirroring is YES"))
    }

    @Test func unsupportedRotationAngle() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            let output = AVCaptureVideoDataOutput()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!))
            session.addOutput(output)
            output.connection(with: .video)!.videoRotationAngle = 45
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureConnection setVideoRotationAngle:]"))
    }

    @Test func addInputThatCannotBeAdded() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            let input = try! AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!)
            session.addInput(input)
            session.addInput(input)
        }
        #expect(Self.message(result).contains("*** -[AVCaptureSession addInput:] Can't add"))
    }

    @Test func addOutputTwice() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            let session = AVCaptureSession()
            let output = AVCaptureVideoDataOutput()
            session.addOutput(output)
            session.addOutput(output)
        }
    }

    @Test func delegateWithoutQueue() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            final class Delegate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate {}
            AVCaptureVideoDataOutput().setSampleBufferDelegate(Delegate(), queue: nil)
        }
        #expect(Self.message(result).contains("sampleBufferCallbackQueue cannot be NULL"))
    }

    @Test func unsupportedPixelFormat() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureVideoDataOutput().videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: 0x7878_7878]
        }
        #expect(Self.message(result).contains("Unsupported pixel format type"))
    }

    @Test func unsupportedPreset() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureSession().sessionPreset = AVCaptureSession.Preset(rawValue: "AVCaptureSessionPresetQHD960x540")
        }
        #expect(Self.message(result).contains("*** -[AVCaptureSession setSessionPreset:]"))
    }

    @Test func presetTheDeviceLacks() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            let session = AVCaptureSession()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:front-wide")!))
            session.sessionPreset = .hd4K3840x2160
        }
    }

    @Test func startRunningInsideConfiguration() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.startRunning()
        }
        #expect(Self.message(result).contains("'NSGenericException'"))
    }

    @Test func unsupportedAuthorizationMediaType() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            _ = AVCaptureDevice.authorizationStatus(for: .metadata)
        }
    }

    @Test func addConnectionThatCannotBeAdded() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            let session = AVCaptureSession()
            let input = try! AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!)
            session.addConnection(AVCaptureConnection(inputPorts: input.ports, output: AVCaptureVideoDataOutput()))
        }
    }
}

@Suite("White-balance exceptions end the process")
struct WhiteBalanceExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func lockedGainsWithoutLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.setWhiteBalanceModeLocked(with: .init(redGain: 1, greenGain: 1, blueGain: 1))
        }
        #expect(Self.message(result).contains("'NSGenericException'"))
    }

    @Test func modeWithoutLock() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            AVCaptureDevice.default(for: .video)!.whiteBalanceMode = .locked
        }
    }

    @Test func gainBelowOne() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.setWhiteBalanceModeLocked(with: .init(redGain: 0.5, greenGain: 1, blueGain: 1))
        }
        #expect(Self.message(result).contains("'NSRangeException'"))
    }

    @Test func gainAboveMaximum() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.setWhiteBalanceModeLocked(with: .init(redGain: 1, greenGain: 5, blueGain: 1))
        }
    }

    @Test func sentinelInConversion() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVCaptureDevice.default(for: .video)!.temperatureAndTintValues(for: AVCaptureDevice.currentWhiteBalanceGains)
        }
        #expect(Self.message(result).contains("'NSRangeException'"))
    }

    @Test func gainsOutOfRangeInConversion() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            _ = AVCaptureDevice.default(for: .video)!.chromaticityValues(for: .init(redGain: 0.9, greenGain: 1, blueGain: 1))
        }
    }

    @Test func chromaticityOutOfRange() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVCaptureDevice.default(for: .video)!.deviceWhiteBalanceGains(for: AVCaptureDevice.WhiteBalanceChromaticityValues(x: 1.5, y: 0.3))
        }
        #expect(Self.message(result).contains("'NSRangeException'"))
    }
}

@Suite("Photo exceptions end the process")
struct PhotoExitTests {
    @Test func reusedSettings() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            final class Quiet: NSObject, AVCapturePhotoCaptureDelegate {}
            let device = AVCaptureDevice.default(for: .video)!
            device.simulation?.pacing = .virtual
            let session = AVCaptureSession()
            let output = AVCapturePhotoOutput()
            session.sessionPreset = .vga640x480
            session.addInput(try! AVCaptureDeviceInput(device: device))
            session.addOutput(output)
            session.startRunning()
            let settings = AVCapturePhotoSettings()
            let delegate = Quiet()
            output.capturePhoto(with: settings, delegate: delegate)
            output.capturePhoto(with: settings, delegate: delegate)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("'NSInvalidArgumentException', reason: '*** -[AVCapturePhotoOutput capturePhotoWithSettings:delegate:] Settings may not be re-used"))
    }

    @Test func unsupportedFlashMode() async {
        await #expect(processExitsWith: .signal(SIGABRT)) {
            final class Quiet: NSObject, AVCapturePhotoCaptureDelegate {}
            let device = AVCaptureDevice(uniqueID: "sim:front-wide")!
            device.simulation?.pacing = .virtual
            let session = AVCaptureSession()
            let output = AVCapturePhotoOutput()
            session.sessionPreset = .vga640x480
            session.addInput(try! AVCaptureDeviceInput(device: device))
            session.addOutput(output)
            session.startRunning()
            let settings = AVCapturePhotoSettings()
            settings.flashMode = .on
            output.capturePhoto(with: settings, delegate: Quiet())
        }
    }
}
