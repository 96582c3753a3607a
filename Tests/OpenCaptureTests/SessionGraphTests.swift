import Foundation
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture

@Suite("AVCaptureSession graph")
struct SessionGraphTests {
    @Test("defaults: preset high, not running, no inputs or outputs")
    func defaults() {
        let session = AVCaptureSession()
        #expect(session.sessionPreset == .high)
        #expect(!session.isRunning)
        #expect(session.inputs.isEmpty && session.outputs.isEmpty && session.connections.isEmpty)
        #expect(session.synchronizationClock != nil)
        for preset in AVCaptureSession.Preset.allPresets { #expect(session.canSetSessionPreset(preset)) }
        #expect(!session.canSetSessionPreset(.init(rawValue: "AVCaptureSessionPresetQHD960x540")))
    }

    @Test("adding an input and an output connects them")
    func autoConnect() throws {
        let session = AVCaptureSession()
        let input = try AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-ultrawide")!)
        let output = AVCaptureVideoDataOutput()
        #expect(session.canAddOutput(output))
        session.addOutput(output)
        #expect(output.connections.isEmpty)
        #expect(session.canAddInput(input))
        session.addInput(input)
        let connection = try #require(output.connection(with: .video))
        #expect(connection.inputPorts.first === input.ports.first)
        #expect(connection.output === output)
        #expect(connection.isEnabled && !connection.isActive)
        #expect(session.connections.count == 1)
        #expect(!session.canAddInput(input))
        #expect(!session.canAddOutput(output))
        let other = try AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:front-wide")!)
        #expect(!session.canAddInput(other), "one camera per session")
        session.removeInput(input)
        #expect(output.connections.isEmpty && session.connections.isEmpty)
        #expect(session.canAddInput(other))
        session.removeOutput(output)
        #expect(session.outputs.isEmpty)
    }

    @Test("a device can be in two sessions, but only one streams from it")
    func deviceStreamsForOneSession() async throws {
        let device = AVCaptureDevice(uniqueID: "sim:back-tele")!
        device.simulation?.pacing = .virtual
        defer { device.simulation?.pacing = .realTime }
        let first = AVCaptureSession()
        first.sessionPreset = .vga640x480
        first.addInput(try AVCaptureDeviceInput(device: device))
        first.addOutput(AVCaptureVideoDataOutput())
        let second = AVCaptureSession()
        second.sessionPreset = .vga640x480
        let input = try AVCaptureDeviceInput(device: device)
        #expect(second.canAddInput(input))
        second.addInput(input)
        second.addOutput(AVCaptureVideoDataOutput())
        let errors = Mutex<[Int]>([])
        let observer = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: second, queue: nil) { note in
            let code = (note.userInfo?[AVCaptureSessionErrorKey] as? NSError)?.code ?? 0
            errors.withLock { $0.append(code) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        first.startRunning()
        second.startRunning()
        #expect(first.isRunning)
        #expect(!second.isRunning)
        eventually("a runtime error was posted") { !errors.withLock { $0.isEmpty } }
        #expect(errors.withLock { $0 } == [AVError.Code.deviceAlreadyUsedByAnotherSession.rawValue])
        first.stopRunning()
        second.startRunning()
        #expect(second.isRunning)
        second.stopRunning()
    }

    @Test("a device's stream claim lasts until the owner releases it, not until its running flag drops")
    func streamClaimOutlivesRunningFlag() throws {
        // A session stopping turns isRunning false before it stops its stream; a second
        // session claiming the device in between would have its new stream stopped by the
        // first one's backend.stop(). The claim is what guards the stream.
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        let stopping = AVCaptureSession(), starting = AVCaptureSession()
        #expect(device.claimStreaming(for: stopping))
        #expect(!stopping.isRunning)
        #expect(!device.claimStreaming(for: starting), "the owner has not stopped its stream yet")
        #expect(device.claimStreaming(for: stopping), "the owner's own claim stands")
        device.releaseStreaming(by: stopping)
        #expect(device.claimStreaming(for: starting))
        device.releaseStreaming(by: starting)
    }

    @Test("inputs have a video port with the device's format and clock")
    func ports() throws {
        let device = AVCaptureDevice(uniqueID: "sim:front-wide")!
        let input = try AVCaptureDeviceInput(device: device)
        let port = try #require(input.ports.first)
        #expect(input.ports.map(\.mediaType) == [.video, .metadataObject])
        #expect(port.mediaType == .video)
        #expect(port.isEnabled)
        #expect(port.clock != nil)
        #expect(port.formatDescription == device.activeFormat.formatDescription)
        #expect(port.sourceDevicePosition == .front)
        #expect(port.input === input)
    }

    @Test("manual connections")
    func manualConnections() throws {
        let session = AVCaptureSession()
        let input = try AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-ultrawide")!)
        let output = AVCaptureVideoDataOutput()
        session.addInputWithNoConnections(input)
        session.addOutputWithNoConnections(output)
        #expect(session.connections.isEmpty)
        let connection = AVCaptureConnection(inputPorts: input.ports, output: output)
        #expect(session.canAddConnection(connection))
        session.addConnection(connection)
        #expect(output.connections == [connection])
        #expect(!session.canAddConnection(AVCaptureConnection(inputPorts: input.ports, output: output)))
        session.removeConnection(connection)
        #expect(output.connections.isEmpty)
        session.removeInput(input)
    }

    @Test("video data output defaults")
    func outputDefaults() throws {
        let output = AVCaptureVideoDataOutput()
        #expect(output.alwaysDiscardsLateVideoFrames)
        #expect(output.videoSettings[kCVPixelBufferPixelFormatTypeKey] as? OSType == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        #expect(Set(output.availableVideoPixelFormatTypes) == [0x3432_3076, 0x3432_3066, 0x7934_3230, 0x6634_3230, 0x4247_5241])
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        #expect(output.videoSettings[kCVPixelBufferPixelFormatTypeKey] as? OSType == kCVPixelFormatType_32BGRA)
        output.videoSettings = nil
        #expect(output.videoSettings[kCVPixelBufferPixelFormatTypeKey] as? OSType == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        #expect(throws: AVCaptureException.self) { try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey: 0x1234_5678]) }
        #expect(throws: AVCaptureException.self) { try output.setSampleBufferDelegateChecked(FrameCollector(), queue: nil) }
        try output.setSampleBufferDelegateChecked(nil, queue: nil)
    }

    @Test("connection rotation and mirroring rules")
    func connectionRules() throws {
        let session = AVCaptureSession()
        let output = AVCaptureVideoDataOutput()
        session.addInput(try AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-wide")!))
        session.addOutput(output)
        defer { session.inputs.forEach(session.removeInput) }
        let connection = try #require(output.connection(with: .video))
        #expect(connection.videoRotationAngle == 0)
        #expect(connection.videoOrientation == .landscapeRight)
        for angle in [0, 90, 180, 270] as [CGFloat] { #expect(connection.isVideoRotationAngleSupported(angle)) }
        #expect(!connection.isVideoRotationAngleSupported(45))
        connection.videoOrientation = .portraitUpsideDown
        #expect(connection.videoRotationAngle == 270)
        connection.videoRotationAngle = 180
        #expect(connection.videoOrientation == .landscapeLeft)
        #expect(throws: AVCaptureException.self) { try connection.setVideoRotationAngle(45) }
        #expect(connection.isVideoMirroringSupported)
        #expect(connection.automaticallyAdjustsVideoMirroring)
        #expect(!connection.isVideoMirrored, "back cameras are not mirrored")
        #expect(throws: AVCaptureException.self) { try connection.setVideoMirrored(true) }
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        #expect(connection.isVideoMirrored)
        connection.automaticallyAdjustsVideoMirroring = true
        #expect(!connection.isVideoMirrored)
        #expect(output.videoSettings[kCVPixelBufferWidthKey] as? Int == 1920)
        // The delivered size, or a smaller one of the same aspect ratio (see VideoOutputScalingTests).
        try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey: 1920, kCVPixelBufferHeightKey: 1080])
        #expect(throws: AVCaptureException.self) {
            try output.setVideoSettings([kCVPixelBufferWidthKey: 640, kCVPixelBufferHeightKey: 480])
        }
        #expect(throws: AVCaptureException.self) { try output.setVideoSettings(["AVVideoScalingModeKey": "fit"]) }
    }
}
