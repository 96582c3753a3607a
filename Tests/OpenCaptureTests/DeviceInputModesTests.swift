import Foundation
import Testing
@testable import OpenCapture

/// The device input's audio and Cinematic modes answer as on an iPhone without them.
@Suite("Device input modes")
struct DeviceInputModesTests {
    static func input() throws -> AVCaptureDeviceInput {
        try AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!)
    }

    @Test("only .none is a supported multichannel mode; the unsupported settings are refused with Apple's reasons")
    func unsupportedModes() throws {
        let input = try Self.input()
        #expect(input.isMultichannelAudioModeSupported(.none))
        #expect(!input.isMultichannelAudioModeSupported(.stereo))
        #expect(!input.isMultichannelAudioModeSupported(.firstOrderAmbisonics))
        #expect(input.multichannelAudioMode == .none)
        #expect(AVCaptureMultichannelAudioMode(rawValue: 2) == .firstOrderAmbisonics)
        #expect(!input.isWindNoiseRemovalSupported && !input.isWindNoiseRemovalEnabled)
        #expect(!input.isCinematicVideoCaptureSupported && !input.isCinematicVideoCaptureEnabled)
        #expect(!input.isAudioZoomSupported && !input.isAudioZoomEnabled)
        // The values it has may be set again.
        input.multichannelAudioMode = .none
        input.isWindNoiseRemovalEnabled = false
        input.isCinematicVideoCaptureEnabled = false
        input.isAudioZoomEnabled = false
        #expect(throws: AVCaptureException(.invalidArgument, "*** -[AVCaptureDeviceInput setMultichannelAudioMode:] Unsupported multichannel audio mode 1 - use isMultichannelAudioModeSupported:")) {
            try input.setMultichannelAudioMode(.stereo)
        }
        #expect(throws: AVCaptureException(.invalidArgument, "*** -[AVCaptureDeviceInput setWindNoiseRemovalEnabled:] Wind noise removal is not supported - use windNoiseRemovalSupported")) {
            try input.setWindNoiseRemovalEnabled(true)
        }
        #expect(throws: AVCaptureException.self) { try input.setCinematicVideoCaptureEnabled(true) }
        #expect(throws: AVCaptureException.self) { try input.setAudioZoomEnabled(true) }
    }

    @Test func settingStereoEndsTheProcess() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let input = try! DeviceInputModesTests.input()
            input.multichannelAudioMode = .stereo
        }
        #expect(ExceptionExitTests.message(result).contains(
            "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '*** -[AVCaptureDeviceInput setMultichannelAudioMode:]"))
    }

    @Test func turningOnCinematicVideoEndsTheProcess() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let input = try! DeviceInputModesTests.input()
            input.isCinematicVideoCaptureEnabled = true
        }
        #expect(ExceptionExitTests.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureDeviceInput setCinematicVideoCaptureEnabled:]"))
    }
}

/// An output's pixel coordinates and metadata-output coordinates convert both ways,
/// through the connection's rotation, mirroring and the output's scaling.
@Suite("Output rect conversions")
struct OutputRectConversionTests {
    static func session(_ output: AVCaptureOutput) throws -> AVCaptureSession {
        let session = AVCaptureSession()
        session.sessionPreset = .hd1280x720
        session.addInput(try AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-wide")!))
        session.addOutput(output)
        return session
    }

    @Test func rotatedAndScaled() throws {
        let output = AVCaptureVideoDataOutput()
        let session = try Self.session(output)
        defer { for input in session.inputs { session.removeInput(input) } }
        let connection = try #require(output.connection(with: .video))
        // Unrotated, scaled to 640x360: the bottom-right quarter.
        output.videoSettings = [kCVPixelBufferWidthKey as String: 640, kCVPixelBufferHeightKey as String: 360]
        #expect(output.metadataOutputRectConverted(fromOutputRect: CGRect(x: 320, y: 180, width: 320, height: 180)) == CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5))
        output.videoSettings = nil
        // Turned 90° clockwise the output is 720x1280 and its top-left quarter shows the
        // sensor's bottom-left quarter.
        connection.videoRotationAngle = 90
        let metadata = output.metadataOutputRectConverted(fromOutputRect: CGRect(x: 0, y: 0, width: 360, height: 640))
        #expect(metadata == CGRect(x: 0, y: 0.5, width: 0.5, height: 0.5))
        #expect(output.outputRectConverted(fromMetadataOutputRect: metadata) == CGRect(x: 0, y: 0, width: 360, height: 640))
        // Mirrored as well: the left-right flip comes after the turn.
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        #expect(output.metadataOutputRectConverted(fromOutputRect: CGRect(x: 0, y: 0, width: 360, height: 640)) == CGRect(x: 0, y: 0, width: 0.5, height: 0.5))
    }

    @Test func withoutAConnectionTheRectIsUnchanged() {
        let rect = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(AVCaptureVideoDataOutput().metadataOutputRectConverted(fromOutputRect: rect) == rect)
        #expect(AVCapturePhotoOutput().outputRectConverted(fromMetadataOutputRect: rect) == rect)
    }
}

@Suite("Movie output keys and modes")
struct MovieOutputModesTests {
    @Test func keysAndSpatialVideo() throws {
        let output = AVCaptureMovieFileOutput()
        let session = try OutputRectConversionTests.session(output)
        defer { for input in session.inputs { session.removeInput(input) } }
        let connection = try #require(output.connection(with: .video))
        #expect(output.supportedOutputSettingsKeys(for: connection) == [AVVideoCodecKey, AVVideoCompressionPropertiesKey])
        #expect(!output.isSpatialVideoCaptureSupported && !output.isSpatialVideoCaptureEnabled)
        output.isSpatialVideoCaptureEnabled = false
        #expect(throws: AVCaptureException.self) { try output.setSpatialVideoCaptureEnabled(true) }
    }
}
