import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Whole pipelines on simulated cameras: ordering, timing, orientation, mirroring,
/// reconfiguration while running, drops and stopping.
@Suite("Session pipeline", .serialized)
struct SessionPipelineTests {
    @Test("frames arrive in order, spaced by the frame duration")
    func framesInOrder() throws {
        let rig = try TestRig()
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(40)
        rig.stop()
        let thirtieth = CMTime(value: 1, timescale: 30)
        // Timestamps are host-clock nanoseconds, as on iOS: each is start + n/30 s rounded to
        // the nanosecond, so neighbours differ by 1/30 s within 1 ns and never drift.
        for (previous, next) in zip(frames, frames.dropFirst()) {
            #expect(next.sequence == previous.sequence + 1)
            #expect(abs((next.time - previous.time - thirtieth).seconds) <= 1e-9)
        }
        let span = frames.last!.time - frames.first!.time
        #expect(abs((span - CMTimeMultiply(thirtieth, multiplier: Int32(frames.count - 1))).seconds) <= 1e-9)
        #expect(frames.allSatisfy { $0.width == 1280 && $0.height == 720 })
        #expect(frames.allSatisfy { $0.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange })
        #expect(frames.allSatisfy { $0.duration == thirtieth })
        #expect(rig.collector.drops.isEmpty)
    }

    @Test("timestamps are on the session's synchronization clock")
    func timestampsOnHostClock() throws {
        let rig = try TestRig(pacing: .realTime)
        let before = CMClockGetTime(rig.session.synchronizationClock!)
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(3)
        let after = CMClockGetTime(rig.session.synchronizationClock!)
        rig.stop()
        #expect(frames.first!.time >= before)
        #expect(frames.first!.time <= after)
    }

    @Test("activeVideoMinFrameDuration = 1/15 while running changes the spacing")
    func frameRateChangeWhileRunning() throws {
        let rig = try TestRig()
        rig.session.startRunning()
        try rig.collector.waitForFrames(10)
        try rig.device.lockForConfiguration()
        rig.device.activeVideoMinFrameDuration = CMTimeMake(value: 1, timescale: 15)
        rig.device.activeVideoMaxFrameDuration = CMTimeMake(value: 1, timescale: 15)
        rig.device.unlockForConfiguration()
        let frames = try rig.collector.waitForMoreFrames(20)
        rig.stop()
        let late = Array(frames.suffix(10))
        for (previous, next) in zip(late, late.dropFirst()) {
            #expect(abs((next.time - previous.time - CMTime(value: 1, timescale: 15)).seconds) <= 1e-9)
        }
        #expect(late.last!.duration == CMTime(value: 1, timescale: 15))
    }

    @Test("portrait orientation delivers 720x1280 for the 1280x720 preset")
    func portraitRotation() throws {
        let rig = try TestRig(pixelFormat: kCVPixelFormatType_32BGRA)
        rig.connection.videoOrientation = .portrait
        #expect(rig.connection.videoRotationAngle == 90)
        rig.collector.keptPixels = 1
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(20)
        rig.stop()
        #expect(frames.allSatisfy { $0.width == 720 && $0.height == 1280 })
        let (last, buffer) = try #require(rig.collector.newestFrameWithPixels)
        #expect(last.sequence >= frames[19].sequence && CVPixelBufferGetWidth(buffer) == 720)
        // The scene's white marker sits top-left of the sensor image and its red one top-right;
        // turned clockwise, they land top-right and bottom-right.
        let white = bgraPixel(buffer, x: 0.9, y: 0.1)
        let red = bgraPixel(buffer, x: 0.9, y: 0.9)
        #expect(white.g > red.g + 60)
        #expect(red.r > red.g + 60)
    }

    @Test("mirroring flips the image left to right")
    func mirroring() throws {
        let rig = try TestRig(pixelFormat: kCVPixelFormatType_32BGRA)
        rig.collector.keptPixels = 1
        rig.connection.automaticallyAdjustsVideoMirroring = false
        rig.connection.isVideoMirrored = true
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(20)
        rig.stop()
        let (last, buffer) = try #require(rig.collector.newestFrameWithPixels)
        #expect(last.sequence >= frames[19].sequence)
        let left = bgraPixel(buffer, x: 0.1, y: 0.1)
        let right = bgraPixel(buffer, x: 0.9, y: 0.1)
        #expect(left.r > left.g + 60, "the red marker moved to the left")
        #expect(right.g > left.g + 60, "the white marker moved to the right")
    }

    @Test("the front camera is mirrored automatically")
    func frontCameraAutoMirroring() throws {
        let rig = try TestRig(uniqueID: "sim:front-wide", pixelFormat: kCVPixelFormatType_32BGRA)
        #expect(rig.connection.automaticallyAdjustsVideoMirroring)
        #expect(rig.connection.isVideoMirrored)
        rig.collector.keptPixels = 1
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(10)
        rig.stop()
        let (last, buffer) = try #require(rig.collector.newestFrameWithPixels)
        #expect(last.sequence >= frames[9].sequence)
        #expect(bgraPixel(buffer, x: 0.1, y: 0.1).r > bgraPixel(buffer, x: 0.1, y: 0.1).g + 60)
    }

    @Test("switching cameras inside begin/commitConfiguration keeps frames flowing")
    func switchCameras() throws {
        let rig = try TestRig()
        rig.session.startRunning()
        try rig.collector.waitForFrames(10)
        let front = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front)!
        front.simulation?.pacing = .virtual
        defer { front.simulation?.pacing = .realTime }
        let newInput = try AVCaptureDeviceInput(device: front)
        rig.session.beginConfiguration()
        rig.session.removeInput(rig.input)
        #expect(rig.session.canAddInput(newInput))
        rig.session.addInput(newInput)
        rig.session.commitConfiguration()
        #expect(rig.session.isRunning)
        let frames = try rig.collector.waitForMoreFrames(20)
        rig.stop()
        #expect(frames.last?.deviceID == "sim:front-wide")
        #expect(rig.output.connection(with: .video)?.inputPorts.first?.input === newInput)
    }

    @Test("changes inside a transaction wait for the outermost commit")
    func nestedTransactions() throws {
        let rig = try TestRig()
        rig.session.startRunning()
        try rig.collector.waitForFrames(5)
        rig.session.beginConfiguration()
        rig.session.beginConfiguration()
        rig.session.sessionPreset = .vga640x480
        rig.session.commitConfiguration()
        #expect(rig.session.isConfiguring)
        // Frames go on meanwhile, in the old size.
        let meanwhile = try rig.collector.waitForMoreFrames(10)
        #expect(meanwhile.allSatisfy { $0.width == 1280 }, "applied before the outermost commit")
        rig.session.commitConfiguration()
        let frames = try rig.collector.waitForMoreFrames(10)
        rig.stop()
        #expect(frames.last?.width == 640 && frames.last?.height == 480)
    }

    @Test("no frame is delivered after stopRunning returns")
    func nothingAfterStop() throws {
        let rig = try TestRig()
        rig.collector.delay = 0.002
        rig.session.startRunning()
        try rig.collector.waitForFrames(20)
        rig.session.stopRunning()
        rig.collector.stopped.store(true, ordering: .releasing)
        let count = rig.collector.frameCount
        #expect(!rig.session.isRunning)
        // Whatever was still queued for the delegate has run by now; then the same camera
        // streams 10 frames to another session while the stopped one must hear nothing.
        rig.collector.queue.sync {}
        let next = try TestRig()
        next.session.startRunning()
        try next.collector.waitForFrames(10)
        next.stop()
        rig.collector.queue.sync {}
        #expect(rig.collector.frameCount == count)
        #expect(!rig.collector.frameAfterStop)
        rig.device.simulation?.pacing = .realTime
    }

    @Test("a slow delegate gets FrameWasLate drops and never more than one queued frame")
    func slowDelegateDropsLateFrames() throws {
        let rig = try TestRig(preset: .hd1280x720, pacing: .realTime)
        try rig.device.lockForConfiguration()
        rig.device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 60)
        rig.device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 60)
        rig.device.unlockForConfiguration()
        rig.collector.delay = 0.05
        rig.session.startRunning()
        let drops = try rig.collector.waitForDrops(10)
        let peak = rig.output.delivery?.peakPendingFrames ?? 99
        rig.stop()
        // Late frames are reported late; a busy machine may also make the camera skip some,
        // reported as a discontinuity.
        #expect(drops.contains(kCMSampleBufferDroppedFrameReason_FrameWasLate), "\(drops)")
        #expect(drops.allSatisfy { [kCMSampleBufferDroppedFrameReason_FrameWasLate, kCMSampleBufferDroppedFrameReason_Discontinuity].contains($0) }, "\(drops)")
        #expect(peak == 1)
    }

    @Test("a delegate that holds buffers gets OutOfBuffers and the pool does not grow")
    func heldBuffersRunOut() throws {
        let rig = try TestRig(pixelFormat: kCVPixelFormatType_32BGRA)
        rig.connection.videoOrientation = .portrait  // a converted frame comes from the output's own pool
        rig.collector.holdsBuffers = true
        rig.session.startRunning()
        let drops = try rig.collector.waitForDrops(5)
        let delivered = rig.collector.frameCount
        rig.stop()
        #expect(drops.contains(kCMSampleBufferDroppedFrameReason_OutOfBuffers))
        #expect(delivered <= FrameRouter.outputPoolSize)
        rig.collector.releaseHeldBuffers()
    }

    @Test("a delegate holding buffers of the device's own format starves the device pool")
    func heldBuffersStarveDevicePool() throws {
        let rig = try TestRig()
        rig.collector.holdsBuffers = true
        rig.session.startRunning()
        let drops = try rig.collector.waitForDrops(5)
        let delivered = rig.collector.frameCount
        rig.stop()
        #expect(drops.contains(kCMSampleBufferDroppedFrameReason_OutOfBuffers))
        #expect(delivered < 12)
        rig.collector.releaseHeldBuffers()
    }

    @Test("every pixel format is delivered as asked", arguments: [
        kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
        kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_420YpCbCr8PlanarFullRange, kCVPixelFormatType_32BGRA,
    ])
    func pixelFormats(format: OSType) throws {
        let rig = try TestRig(preset: .vga640x480, pixelFormat: format)
        rig.collector.keptPixels = 1
        rig.session.startRunning()
        try rig.collector.waitForFrames(5)
        rig.stop()
        let buffer = try #require(rig.collector.newestFrameWithPixels?.buffer)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == format)
        let planes = CVPixelBufferGetPlaneCount(buffer)
        #expect(planes == (format == kCVPixelFormatType_32BGRA ? 0 : format == kCVPixelFormatType_420YpCbCr8Planar || format == kCVPixelFormatType_420YpCbCr8PlanarFullRange ? 3 : 2))
        for plane in 0..<max(planes, 1) where planes > 0 {
            #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, plane) % 64 == 0)
        }
    }

    @Test("notifications: did start and did stop, in both name styles")
    func runningNotifications() async throws {
        #expect(AVCaptureSession.didStartRunningNotification == .AVCaptureSessionDidStartRunning)
        #expect(AVCaptureSession.didStopRunningNotification == .AVCaptureSessionDidStopRunning)
        #expect(AVCaptureSession.runtimeErrorNotification.rawValue == "AVCaptureSessionRuntimeErrorNotification")
        let rig = try TestRig()
        let seen = Mutex<[Notification.Name]>([])
        let observers = [AVCaptureSession.didStartRunningNotification, .AVCaptureSessionDidStopRunning].map { name in
            NotificationCenter.default.addObserver(forName: name, object: rig.session, queue: nil) { note in
                seen.withLock { $0.append(note.name) }
            }
        }
        rig.session.startRunning()
        rig.stop()
        eventually("did start and did stop were posted") { seen.withLock { $0.count } >= 2 }
        observers.forEach(NotificationCenter.default.removeObserver)
        let names: [Notification.Name] = seen.withLock { $0 }
        #expect(names == [Notification.Name.AVCaptureSessionDidStartRunning, Notification.Name.AVCaptureSessionDidStopRunning])
    }
}

@Suite("Runtime faults", .serialized)
struct RuntimeFaultTests {
    @Test("unplugging a camera posts a runtime error, stops the session, and a new device object appears on re-plug")
    func disconnect() async throws {
        let rig = try TestRig(uniqueID: "sim:back-tele", preset: .vga640x480)
        let errors = Mutex<[Int]>([])
        let events = Mutex<[Notification.Name]>([])
        let observers = [
            NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: rig.session, queue: nil) { note in
                errors.withLock { $0.append((note.userInfo?[AVCaptureSessionErrorKey] as? NSError)?.code ?? 0) }
            },
            NotificationCenter.default.addObserver(forName: AVCaptureSession.didStopRunningNotification, object: rig.session, queue: nil) { note in
                events.withLock { $0.append(note.name) }
            },
            NotificationCenter.default.addObserver(forName: AVCaptureDevice.wasDisconnectedNotification, object: nil, queue: nil) { note in
                events.withLock { $0.append(note.name) }
            },
        ]
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        rig.session.startRunning()
        try rig.collector.waitForFrames(10)
        rig.device.simulation?.disconnect()
        eventually("a runtime error, did stop and was disconnected were posted") {
            events.withLock { $0.count } >= 2 && !errors.withLock { $0.isEmpty }
        }
        #expect(errors.withLock { $0 } == [AVError.Code.deviceWasDisconnected.rawValue])
        #expect(Set(events.withLock { $0 }) == [AVCaptureSession.didStopRunningNotification, AVCaptureDevice.wasDisconnectedNotification])
        #expect(!rig.session.isRunning)
        #expect(!rig.device.isConnected)
        #expect(AVCaptureDevice(uniqueID: "sim:back-tele") == nil, "a disconnected camera is not discoverable")
        #expect(throws: AVError.self) { try AVCaptureDeviceInput(device: rig.device) }
        let fresh = try #require(rig.device.simulation?.reconnect())
        #expect(fresh.uniqueID == "sim:back-tele" && fresh.isConnected)
        #expect(fresh != rig.device)
        #expect(AVCaptureDevice(uniqueID: "sim:back-tele") == fresh)
        #expect(rig.device.isConnected == false, "once false, never true again")
    }

    @Test("a disabled connection or port delivers nothing; isActive follows")
    func disabledConnection() throws {
        let rig = try TestRig(preset: .vga640x480)
        rig.session.startRunning()
        try rig.collector.waitForFrames(3)
        #expect(rig.connection.isActive)
        rig.connection.isEnabled = false
        #expect(!rig.connection.isActive)
        try expectNothingDelivered(to: rig, "a disabled connection")
        rig.connection.isEnabled = true
        try rig.collector.waitForMoreFrames(3)
        rig.input.ports[0].isEnabled = false
        try expectNothingDelivered(to: rig, "a disabled port")
        rig.input.ports[0].isEnabled = true
        try rig.collector.waitForMoreFrames(3)
        rig.stop()
        #expect(!rig.connection.isActive)
    }

    /// While the camera renders 10 more frames, the rig's output gets none of them (at most
    /// the frame routed as the change was made).
    private func expectNothingDelivered(to rig: TestRig, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let changedAt = rig.device.lastFrameMetadata.sequence
        let count = rig.collector.frameCount
        eventually("the camera renders on", sourceLocation: sourceLocation) { rig.device.lastFrameMetadata.sequence >= changedAt + 10 }
        rig.collector.queue.sync {}
        let late = rig.collector.frames.dropFirst(count).filter { $0.sequence > changedAt + 1 }
        #expect(late.isEmpty, "\(what) delivered frames \(late.map(\.sequence))", sourceLocation: sourceLocation)
    }
}
