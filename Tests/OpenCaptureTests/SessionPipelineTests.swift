import Foundation
import Synchronization
import Testing
@testable import OpenCapture

/// Whole pipelines on simulated cameras: ordering, timing, orientation, mirroring,
/// reconfiguration while running, drops and stopping.
@Suite("Session pipeline", .serialized)
struct SessionPipelineTests {
    @Test("frames arrive in order, spaced by the frame duration")
    func framesInOrder() throws {
        let rig = try TestRig()
        rig.session.startRunning()
        let frames = rig.collector.waitForFrames(40)
        rig.stop()
        #expect(frames.count >= 40)
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
        let frames = rig.collector.waitForFrames(3)
        let after = CMClockGetTime(rig.session.synchronizationClock!)
        rig.stop()
        #expect(frames.first!.time >= before)
        #expect(frames.first!.time <= after)
    }

    @Test("activeVideoMinFrameDuration = 1/15 while running changes the spacing")
    func frameRateChangeWhileRunning() throws {
        let rig = try TestRig()
        rig.session.startRunning()
        rig.collector.waitForFrames(10)
        try rig.device.lockForConfiguration()
        rig.device.activeVideoMinFrameDuration = CMTimeMake(value: 1, timescale: 15)
        rig.device.activeVideoMaxFrameDuration = CMTimeMake(value: 1, timescale: 15)
        rig.device.unlockForConfiguration()
        let mark = rig.collector.frames.count
        let frames = rig.collector.waitForFrames(mark + 20)
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
        rig.collector.keepsPixels = true
        rig.session.startRunning()
        let frames = rig.collector.waitForFrames(20)
        rig.stop()
        let last = try #require(frames.last)
        #expect(last.width == 720 && last.height == 1280)
        // The scene's white marker sits top-left of the sensor image and its red one top-right;
        // turned clockwise, they land top-right and bottom-right.
        let white = bgraPixel(last.buffer!, x: 0.9, y: 0.1)
        let red = bgraPixel(last.buffer!, x: 0.9, y: 0.9)
        #expect(white.g > red.g + 60)
        #expect(red.r > red.g + 60)
    }

    @Test("mirroring flips the image left to right")
    func mirroring() throws {
        let rig = try TestRig(pixelFormat: kCVPixelFormatType_32BGRA)
        rig.collector.keepsPixels = true
        rig.connection.automaticallyAdjustsVideoMirroring = false
        rig.connection.isVideoMirrored = true
        rig.session.startRunning()
        let frames = rig.collector.waitForFrames(20)
        rig.stop()
        let buffer = try #require(frames.last?.buffer)
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
        rig.collector.keepsPixels = true
        rig.session.startRunning()
        let frames = rig.collector.waitForFrames(10)
        rig.stop()
        let buffer = try #require(frames.last?.buffer)
        #expect(bgraPixel(buffer, x: 0.1, y: 0.1).r > bgraPixel(buffer, x: 0.1, y: 0.1).g + 60)
    }

    @Test("switching cameras inside begin/commitConfiguration keeps frames flowing")
    func switchCameras() throws {
        let rig = try TestRig()
        rig.session.startRunning()
        rig.collector.waitForFrames(10)
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
        let mark = rig.collector.frames.count
        let frames = rig.collector.waitForFrames(mark + 20)
        rig.stop()
        #expect(frames.count >= mark + 20)
        #expect(frames.last?.deviceID == "sim:front-wide")
        #expect(rig.output.connection(with: .video)?.inputPorts.first?.input === newInput)
    }

    @Test("changes inside a transaction wait for the outermost commit")
    func nestedTransactions() throws {
        let rig = try TestRig()
        rig.session.startRunning()
        rig.collector.waitForFrames(5)
        rig.session.beginConfiguration()
        rig.session.beginConfiguration()
        rig.session.sessionPreset = .vga640x480
        rig.session.commitConfiguration()
        #expect(rig.session.isConfiguring)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rig.collector.frames.last?.width == 1280, "applied before the outermost commit")
        rig.session.commitConfiguration()
        let mark = rig.collector.frames.count
        let frames = rig.collector.waitForFrames(mark + 10)
        rig.stop()
        #expect(frames.last?.width == 640 && frames.last?.height == 480)
    }

    @Test("no frame is delivered after stopRunning returns")
    func nothingAfterStop() throws {
        let rig = try TestRig()
        rig.collector.delay = 0.002
        rig.session.startRunning()
        rig.collector.waitForFrames(20)
        rig.session.stopRunning()
        rig.collector.stopped.store(true, ordering: .releasing)
        let count = rig.collector.frames.count
        Thread.sleep(forTimeInterval: 0.3)
        #expect(rig.collector.frames.count == count)
        #expect(!rig.collector.frameAfterStop)
        #expect(!rig.session.isRunning)
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
        let drops = rig.collector.waitForDrops(10)
        let peak = rig.output.delivery?.peakPendingFrames ?? 99
        rig.stop()
        #expect(drops.count >= 10)
        #expect(drops.allSatisfy { $0 == kCMSampleBufferDroppedFrameReason_FrameWasLate })
        #expect(peak == 1)
    }

    @Test("a delegate that holds buffers gets OutOfBuffers and the pool does not grow")
    func heldBuffersRunOut() throws {
        let rig = try TestRig(pixelFormat: kCVPixelFormatType_32BGRA)
        rig.connection.videoOrientation = .portrait  // a converted frame comes from the output's own pool
        rig.collector.holdsBuffers = true
        rig.session.startRunning()
        let drops = rig.collector.waitForDrops(5)
        let delivered = rig.collector.frames.count
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
        let drops = rig.collector.waitForDrops(5)
        let delivered = rig.collector.frames.count
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
        rig.collector.keepsPixels = true
        rig.session.startRunning()
        let frames = rig.collector.waitForFrames(5)
        rig.stop()
        let buffer = try #require(frames.last?.buffer)
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
        for _ in 0..<200 where seen.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
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
        let before = rig.collector.waitForFrames(10).count
        rig.device.simulation?.disconnect()
        for _ in 0..<300 where events.withLock({ $0.count }) < 2 || errors.withLock({ $0.isEmpty }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(errors.withLock { $0 } == [AVError.Code.deviceWasDisconnected.rawValue])
        #expect(Set(events.withLock { $0 }) == [AVCaptureSession.didStopRunningNotification, AVCaptureDevice.wasDisconnectedNotification])
        #expect(!rig.session.isRunning)
        #expect(!rig.device.isConnected)
        #expect(before >= 10)
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
        rig.collector.waitForFrames(3)
        #expect(rig.connection.isActive)
        rig.connection.isEnabled = false
        #expect(!rig.connection.isActive)
        Thread.sleep(forTimeInterval: 0.1)
        let count = rig.collector.frames.count
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rig.collector.frames.count == count)
        rig.connection.isEnabled = true
        rig.collector.waitForFrames(count + 3)
        rig.input.ports[0].isEnabled = false
        Thread.sleep(forTimeInterval: 0.1)
        let paused = rig.collector.frames.count
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rig.collector.frames.count == paused)
        rig.input.ports[0].isEnabled = true
        #expect(rig.collector.waitForFrames(paused + 3).count >= paused + 3)
        rig.stop()
        #expect(!rig.connection.isActive)
    }
}
