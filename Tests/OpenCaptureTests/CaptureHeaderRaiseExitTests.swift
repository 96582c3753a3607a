import Foundation
import Testing

@testable import OpenCapture

/// Capture-side raises as Apple's headers state them (#30 item 2, second half; each rule and
/// its sentence in docs/avfoundation-api.md section 9): the exception named, or none where
/// the header names none.
@Suite("Capture header raises end the process as Apple's headers say")
struct CaptureHeaderRaiseExitTests {
    static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    /// AVCaptureDevice.h: "otherwise an NSGenericException is thrown" (not invalid argument).
    @Test func globalToneMappingUnsupportedIsGeneric() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.isGlobalToneMappingEnabled = true
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setGlobalToneMappingEnabled:] globalToneMappingEnabled may only be set to YES if activeFormat.isGlobalToneMappingSupported is YES'"))
    }

    /// AVCaptureDevice.h names only the lock rule for geometric distortion correction: with
    /// the lock, turning it on where unsupported does not raise and it stays off.
    @Test func geometricDistortionCorrectionDoesNotRaise() async {
        await #expect(processExitsWith: .success) {
            let device = AVCaptureDevice.default(for: .video)!
            try device.lockForConfiguration()
            device.isGeometricDistortionCorrectionEnabled = true
            if device.isGeometricDistortionCorrectionEnabled { exit(1) }
        }
    }

    @Test func geometricDistortionCorrectionNeedsTheLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.isGeometricDistortionCorrectionEnabled = false
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setGeometricDistortionCorrectionEnabled:] May not be called without first successfully calling -lockForConfiguration:'"))
    }

    /// "-setCenterStageRectOfInterest: throws an NSGenericException if called without first
    /// obtaining exclusive access to the receiver using -lockForConfiguration:."
    @Test func centerStageRectOfInterestNeedsTheLock() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCaptureDevice.default(for: .video)!.centerStageRectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
        }
        #expect(Self.message(result).contains("'NSGenericException', reason: '*** -[AVCaptureDevice setCenterStageRectOfInterest:] May not be called without first"))
    }

    /// "...throws an NSInvalidArgumentException if none of the AVCaptureDeviceFormats
    /// supported by the receiver support CenterStage" — even for the default rectangle.
    @Test func centerStageRectOfInterestWithoutCenterStageFormats() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice.default(for: .video)!
            try? device.lockForConfiguration()
            device.centerStageRectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setCenterStageRectOfInterest:] None of the receiver's formats supports Center Stage"))
    }

    /// "...or if restrictedSwitchingBehaviorConditions is not equal to
    /// AVCapturePrimaryConstituentDeviceRestrictedSwitchingBehaviorConditionNone and
    /// switchingBehavior is not equal to AVCapturePrimaryConstituentDeviceSwitchingBehaviorRestricted."
    @Test func switchingConditionsWithoutRestrictedBehavior() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = AVCaptureDevice(uniqueID: "sim:back-triple")!
            try? device.lockForConfiguration()
            device.setPrimaryConstituentDeviceSwitchingBehavior(.auto, restrictedSwitchingBehaviorConditions: [.focusModeChanged])
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDevice setPrimaryConstituentDeviceSwitchingBehavior:restrictedSwitchingBehaviorConditions:] restrictedSwitchingBehaviorConditions must be none unless switchingBehavior is AVCapturePrimaryConstituentDeviceSwitchingBehaviorRestricted'"))
    }

    /// AVCaptureDevice.h raises only for a camera that cannot switch or for conditions
    /// without `.restricted`: `.unsupported` on a virtual device ends without a trap and
    /// reads back, with zoom still choosing the constituent (nothing is held).
    @Test func unsupportedSwitchingBehaviorOnAVirtualDeviceDoesNotRaise() async {
        await #expect(processExitsWith: .success) {
            let device = AVCaptureDevice(uniqueID: "sim:back-triple")!
            try device.lockForConfiguration()
            device.setPrimaryConstituentDeviceSwitchingBehavior(.unsupported, restrictedSwitchingBehaviorConditions: [])
            if device.primaryConstituentDeviceSwitchingBehavior != .unsupported { exit(1) }
            if device.activePrimaryConstituentDeviceSwitchingBehavior != .unsupported { exit(2) }
            if device.minAvailableVideoZoomFactor != 1 { exit(3) }
        }
    }

    /// AVCaptureFileOutput.h raises for "anything other than
    /// AVCapturePrimaryConstituentDeviceSwitchingBehaviorUnsupported" without a switching
    /// camera, and names nothing for `.unsupported` with one: it is kept, and the output
    /// still counts the camera as switching.
    @Test func unsupportedRecordingSwitchingBehaviorWithASwitchingCameraDoesNotRaise() async {
        await #expect(processExitsWith: .success) {
            let session = AVCaptureSession()
            session.addInput(try AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-triple")!))
            let output = AVCaptureMovieFileOutput()
            session.addOutput(output)
            output.setPrimaryConstituentDeviceSwitchingBehaviorForRecording(.unsupported, restrictedSwitchingBehaviorConditions: [])
            if output.primaryConstituentDeviceSwitchingBehaviorForRecording != .unsupported { exit(1) }
            if !output.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled { exit(2) }
        }
    }

    /// The same header sentence for a camera that cannot switch: `.auto` raises.
    @Test func recordingSwitchingBehaviorWithoutASwitchingCamera() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            session.addInput(try AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-wide")!))
            let output = AVCaptureMovieFileOutput()
            session.addOutput(output)
            output.setPrimaryConstituentDeviceSwitchingBehaviorForRecording(.auto, restrictedSwitchingBehaviorConditions: [])
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureMovieFileOutput setPrimaryConstituentDeviceSwitchingBehaviorForRecording:restrictedSwitchingBehaviorConditions:] The connected device does not support constituent device switching'"))
    }

    /// AVCaptureDevice.h's conversions name only range exceptions and return "a fully
    /// populated" structure: a camera without colour calibration (a file deck) converts as a
    /// linear-sRGB camera instead of raising; gains of 1 balance D65.
    @Test func whiteBalanceConversionsWithoutCalibrationDoNotRaise() async {
        await #expect(processExitsWith: .success) {
            let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("uncalibrated-\(UUID().uuidString).mp4")
            let ffmpeg = Process()
            ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            ffmpeg.arguments = ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-frames:v", "5", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-y", url.path]
            try ffmpeg.run()
            ffmpeg.waitUntilExit()
            defer { try? FileManager.default.removeItem(at: url) }
            let deck = try AVCaptureDevice.fileDeck(url: url)
            let unity = AVCaptureDevice.WhiteBalanceGains(redGain: 1, greenGain: 1, blueGain: 1)
            let white = deck.chromaticityValues(for: unity)
            if abs(white.x - 0.3127) > 1e-3 || abs(white.y - 0.3290) > 1e-3 { exit(1) }
            if abs(deck.temperatureAndTintValues(for: unity).temperature - 6504) > 30 { exit(2) }
            let back = deck.deviceWhiteBalanceGains(for: white)
            if abs(back.redGain - 1) > 1e-3 || abs(back.greenGain - 1) > 1e-3 || abs(back.blueGain - 1) > 1e-3 { exit(3) }
            if deck.deviceWhiteBalanceGains(for: .init(temperature: 3000, tint: 0)).blueGain <= 1 { exit(4) }
        }
    }

    /// AVCaptureFileOutput.h names no exception for
    /// primaryConstituentDeviceSwitchingBehaviorForRecordingEnabled: setting it on an output
    /// without a switching camera ends without a trap and reads false.
    @Test func recordingSwitchingEnabledWithoutASwitchingCamera() async {
        await #expect(processExitsWith: .success) {
            let output = AVCaptureMovieFileOutput()
            output.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled = true
            if output.isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled { exit(1) }
        }
    }

    /// AVCaptureVideoDataOutput.h: "The videoCodecType string provided must be present in the
    /// availableVideoCodecTypesForAssetWriterWithOutputFileType: array, or an
    /// NSInvalidArgumentException is thrown."
    @Test func recommendedSettingsForACodecTheWriterCannotMake() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVCaptureVideoDataOutput().recommendedVideoSettings(forVideoCodecType: .h264, assetWriterOutputFileType: .wav)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureVideoDataOutput recommendedVideoSettingsForVideoCodecType:assetWriterOutputFileType:] videoCodecType avc1 must be present in availableVideoCodecTypesForAssetWriterWithOutputFileType:"))
    }

    @Test func recommendedSettingsWithURLForACodecTheWriterCannotMake() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            _ = AVCaptureVideoDataOutput().recommendedVideoSettings(
                forVideoCodecType: .proRes422, assetWriterOutputFileType: .mov, outputFileURL: nil)
        }
        #expect(Self.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureVideoDataOutput recommendedVideoSettingsForVideoCodecType:assetWriterOutputFileType:outputFileURL:]"))
    }
}
