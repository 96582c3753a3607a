import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture
@testable import SimulatedCamera

/// Two cameras at once: back and front simulated cameras, each with its own output.
@Suite("Multi-camera session", .serialized)
struct MultiCamSessionTests {
    /// A camera set to 1280x720, virtual time, seeded.
    private func camera(_ id: String) throws -> AVCaptureDevice {
        let device = try #require(AVCaptureDevice(uniqueID: id))
        device.simulation?.pacing = .virtual
        device.simulation?.seed = 3
        let format = try #require(device.formats.first { $0.formatDescription.dimensions.width == 1280 && $0.formatDescription.dimensions.height == 720 && !$0.isVideoBinned })
        try device.lockForConfiguration()
        device.activeFormat = format
        device.unlockForConfiguration()
        return device
    }

    @Test("two cameras stream at once into their own outputs; disabling one camera's connection stops it")
    func twoCameras() throws {
        #expect(AVCaptureMultiCamSession.isMultiCamSupported)
        let session = AVCaptureMultiCamSession()
        #expect(session.sessionPreset == .inputPriority)
        let back = try camera("sim:back-wide"), front = try camera("sim:front-wide")
        defer {
            back.simulation?.pacing = .realTime
            front.simulation?.pacing = .realTime
        }
        var collectors: [FrameCollector] = []
        var connections: [AVCaptureConnection] = []
        session.beginConfiguration()
        for device in [back, front] {
            let input = try AVCaptureDeviceInput(device: device)
            #expect(session.canAddInput(input))
            session.addInputWithNoConnections(input)
            let output = AVCaptureVideoDataOutput()
            let collector = FrameCollector()
            output.setSampleBufferDelegate(collector, queue: collector.queue)
            session.addOutputWithNoConnections(output)
            let connection = AVCaptureConnection(inputPorts: input.ports, output: output)
            #expect(session.canAddConnection(connection))
            session.addConnection(connection)
            collectors.append(collector)
            connections.append(connection)
        }
        session.commitConfiguration()
        // Two 720p30 cameras: a small share of the readout budget and of what the heat allows.
        #expect(abs(session.hardwareCost - Float(2 * 1280 * 720 * 30) / Float(2 * 1920 * 1080 * 60)) < 1e-4)
        #expect(session.systemPressureCost > 0 && session.systemPressureCost < 0.5)
        session.startRunning()
        defer { session.stopRunning() }
        #expect(session.isRunning)
        let backFrames = try collectors[0].waitForFrames(5), frontFrames = try collectors[1].waitForFrames(5)
        #expect(backFrames.allSatisfy { $0.deviceID == "sim:back-wide" && $0.width == 1280 })
        #expect(frontFrames.allSatisfy { $0.deviceID == "sim:front-wide" && $0.width == 1280 })
        // The front camera's only connection off: it stops; the back camera goes on.
        connections[1].isEnabled = false
        let frontCamera = try #require(front.simulation?.camera)
        eventually("the front camera stopped streaming") { !frontCamera.isStreaming }
        collectors[1].queue.sync {}
        let frontCount = collectors[1].frameCount
        try collectors[0].waitForMoreFrames(10)
        collectors[1].queue.sync {}
        #expect(collectors[1].frameCount == frontCount)
    }

    @Test("each camera has a photo output of its own; a plain session still takes one photo output")
    func photoOutputPerCamera() throws {
        let session = AVCaptureMultiCamSession()
        let back = try camera("sim:back-wide"), front = try camera("sim:front-wide")
        defer {
            back.simulation?.pacing = .realTime
            front.simulation?.pacing = .realTime
        }
        // The front camera at another size, so each photo shows which camera took it.
        let small = try #require(front.formats.first { $0.formatDescription.dimensions.width == 640 && $0.formatDescription.dimensions.height == 480 && !$0.isVideoBinned })
        try front.lockForConfiguration()
        front.activeFormat = small
        front.unlockForConfiguration()
        var outputs: [AVCapturePhotoOutput] = []
        session.beginConfiguration()
        for device in [back, front] {
            let input = try AVCaptureDeviceInput(device: device)
            session.addInputWithNoConnections(input)
            let output = AVCapturePhotoOutput()
            #expect(session.canAddOutput(output), "a multi-cam session takes a photo output per camera")
            session.addOutputWithNoConnections(output)
            let connection = AVCaptureConnection(inputPorts: input.ports.filter { $0.mediaType == .video }, output: output)
            #expect(session.canAddConnection(connection))
            session.addConnection(connection)
            outputs.append(output)
        }
        session.commitConfiguration()
        session.startRunning()
        defer { session.stopRunning() }
        #expect(session.isRunning)
        var sizes: [String] = []
        for output in outputs {
            let recorder = PhotoRecorder()
            output.capturePhoto(with: AVCapturePhotoSettings(), delegate: recorder)
            try recorder.done.wait(within: .seconds(60))
            #expect(recorder.error.withLock { $0 } == nil)
            let photo = try #require(recorder.photo.withLock { $0 })
            let size = photo.resolvedSettings.photoDimensions
            sizes.append("\(size.width)x\(size.height)")
            #expect((photo.fileDataRepresentation()?.count ?? 0) > 0)
        }
        // Each photo at its own camera's default photo size (the smallest its format offers).
        let expected = [back, front].map { device -> String in
            let size = device.activeFormat.supportedMaxPhotoDimensions.first ?? device.activeFormat.formatDescription.dimensions
            return "\(size.width)x\(size.height)"
        }
        #expect(expected[0] != expected[1])
        #expect(sizes == expected)
        // A single-camera session keeps one still output.
        let plain = AVCaptureSession()
        plain.addOutput(AVCapturePhotoOutput())
        #expect(!plain.canAddOutput(AVCapturePhotoOutput()))
    }

    @Test("a plain session takes one camera; the same camera twice, 4K formats and other presets are refused")
    func rules() throws {
        let plain = AVCaptureSession()
        plain.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))))
        #expect(!plain.canAddInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice(uniqueID: "sim:front-wide")))))
        let session = AVCaptureMultiCamSession()
        #expect(!session.canSetSessionPreset(.high))
        #expect(throws: AVCaptureException.self) { try session.setSessionPreset(.hd1280x720) }
        let back = try camera("sim:back-wide")
        defer { back.simulation?.pacing = .realTime }
        session.addInputWithNoConnections(try AVCaptureDeviceInput(device: back))
        #expect(!session.canAddInput(try AVCaptureDeviceInput(device: back)))
        let tele = try #require(AVCaptureDevice(uniqueID: "sim:back-tele"))
        let big = try #require(tele.formats.first { $0.formatDescription.dimensions.width == 3840 })
        #expect(!big.isMultiCamSupported)
        try tele.lockForConfiguration()
        let previous = tele.activeFormat
        tele.activeFormat = big
        tele.unlockForConfiguration()
        defer {
            try? tele.lockForConfiguration()
            tele.activeFormat = previous
            tele.unlockForConfiguration()
        }
        #expect(!session.canAddInput(try AVCaptureDeviceInput(device: tele)))
        let sets = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .unspecified
        ).supportedMultiCamDeviceSets
        #expect(sets.contains(Set([back, try #require(AVCaptureDevice(uniqueID: "sim:front-wide"))])))
    }

    @Test("cameras needing more than the hardware can read out report sessionHardwareCostOverage and do not run")
    func hardwareCostOverage() throws {
        let session = AVCaptureMultiCamSession()
        let ids = ["sim:back-wide", "sim:back-ultra", "sim:back-tele", "sim:front-wide"]
        var restore: [(AVCaptureDevice, AVCaptureDevice.Format)] = []
        defer {
            for (device, format) in restore {
                try? device.lockForConfiguration()
                device.activeFormat = format
                device.unlockForConfiguration()
            }
        }
        session.beginConfiguration()
        for id in ids {
            guard let device = AVCaptureDevice(uniqueID: id) else { continue }
            // Each camera's most demanding multi-cam format, at its fastest rate.
            func rate(_ f: AVCaptureDevice.Format) -> Double {
                Double(f.formatDescription.dimensions.width) * Double(f.formatDescription.dimensions.height)
                    * (f.videoSupportedFrameRateRanges.map(\.maxFrameRate).max() ?? 0)
            }
            guard let format = device.formats.filter(\.isMultiCamSupported).max(by: { rate($0) < rate($1) }) else { continue }
            restore.append((device, device.activeFormat))
            try device.lockForConfiguration()
            device.activeFormat = format
            device.activeVideoMinFrameDuration = format.videoSupportedFrameRateRanges.max { $0.maxFrameRate < $1.maxFrameRate }!.minFrameDuration
            device.unlockForConfiguration()
            let input = try AVCaptureDeviceInput(device: device)
            session.addInputWithNoConnections(input)
            let output = AVCaptureVideoDataOutput()
            session.addOutputWithNoConnections(output)
            session.addConnection(AVCaptureConnection(inputPorts: input.ports, output: output))
        }
        session.commitConfiguration()
        // Four cameras at 1080p60 or faster: twice the budget.
        try #require(session.hardwareCost > 1, "the four cameras at their fastest: \(session.hardwareCost)")
        let errors = Mutex<[Int]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil
        ) { note in
            if let error = note.userInfo?[AVCaptureSessionErrorKey] as? NSError { errors.withLock { $0.append(error.code) } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        session.startRunning()
        eventually("a runtime error was posted", within: .seconds(5)) { !errors.withLock { $0.isEmpty } }
        #expect(!session.isRunning)
        #expect(errors.withLock { $0 } == [AVError.Code.sessionHardwareCostOverage.rawValue])
    }
}
