import Foundation
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture
@testable import V4L2Camera

/// The V4L2 backend against the real vivid kernel driver. These run inside the virtual
/// machine `scripts/vivid-vm` boots (`make test-vivid`); on a machine without vivid they
/// are skipped, and the host-only suites cover what needs no device.
@Suite("vivid: V4L2 backend on the real kernel driver", .serialized, .enabled(if: Vivid.isPresent))
struct VividDriverTests {
    static let ourCodes: [V4L2PixelCode] = [.yuyv, .uyvy, .yu12, .nv12, .rgb24, .bgr24]
    /// Every 8-bit format: V4L2 modes are 8-bit, so an output there cannot ask for 'x420'/'xf20'.
    static let outputs: [PixelFormat] = PixelFormat.pictureFormats.filter { !$0.isTenBit }

    @Test func vividIsAnExternalCamera() throws {
        let device = try #require(Vivid.device())
        let camera = Vivid.camera(device)
        Vivid.log("driver=\(camera.capability.driver) card=\(camera.capability.card) bus=\(camera.capability.busInfo) node=\(camera.path)")
        #expect(camera.capability.driver == "vivid")
        #expect(device.uniqueID == "v4l2:platform:vivid-000")
        #expect(device.deviceType == .external)
        #expect(device.position == .unspecified)
        #expect(device.isConnected)
        #expect(AVCaptureDevice.authorizationStatus(for: .video) == .authorized)
        // The simulated cameras stay the built-in ones.
        #expect(AVCaptureDevice.default(for: .video)?.uniqueID == "sim:back-wide")
    }

    /// Unplug and re-plug (unloading and reloading vivid): wasDisconnected, then
    /// wasConnected with a new device object that has the same unique ID.
    @Test func hotPlugIsFollowed() throws {
        // Runs before the streaming tests: rmmod needs every file handle and mapping of the
        // node closed (see the closing note on buffers outputs keep).
        let id = "v4l2:platform:vivid-000"
        let old = AVCaptureDevice(uniqueID: id)
        let gone = waitForNotification(AVCaptureDevice.wasDisconnectedNotification, timeout: old == nil ? 1 : 20) {
            Vivid.log("vivid-unload: \((try? Vivid.run("/opt/bin/vivid-unload", [])) ?? "?")")
        }
        if old != nil { #expect(gone != nil) }
        #expect(AVCaptureDevice(uniqueID: id) == nil)
        let back = waitForNotification(AVCaptureDevice.wasConnectedNotification) {
            Vivid.log("vivid-load: \((try? Vivid.run("/opt/bin/vivid-load", [])) ?? "?")")
        }
        Vivid.log("unloaded and reloaded vivid")
        let fresh = try #require(back?.object as? AVCaptureDevice)
        #expect(fresh.uniqueID == id)
        #expect(fresh.isConnected)
        let rig = try VividRig(device: fresh, format: try #require(Vivid.format(fresh, .yuyv, 320, 180)), pixelFormat: PixelFormat.bgra.rawValue)
        rig.session.startRunning()
        #expect(rig.waitForFrames(2) >= 2)
        rig.session.stopRunning()
    }

    /// Two real devices in one AVCaptureMultiCamSession (vivid reloaded with two capture
    /// nodes, then back to one): each streams into its own output. Early, like the hot-plug
    /// test, because rmmod needs every handle on the nodes closed.
    @Test func multiCamSessionRunsTwoDevices() throws {
        let ids = ["v4l2:platform:vivid-000", "v4l2:platform:vivid-001"]
        _ = waitForNotification(AVCaptureDevice.wasDisconnectedNotification, timeout: 10) {
            Vivid.log("vivid-unload: \((try? Vivid.run("/opt/bin/vivid-unload", [])) ?? "?")")
        }
        Vivid.log("vivid-load 2: \((try? Vivid.run("/opt/bin/vivid-load", ["n_devs=2", "node_types=0x1,0x1", "input_types=0x0,0x0"])) ?? "?")")
        defer {
            _ = waitForNotification(AVCaptureDevice.wasDisconnectedNotification, timeout: 10) {
                Vivid.log("vivid-unload: \((try? Vivid.run("/opt/bin/vivid-unload", [])) ?? "?")")
            }
            _ = waitForNotification(AVCaptureDevice.wasConnectedNotification, timeout: 20) {
                Vivid.log("vivid-load: \((try? Vivid.run("/opt/bin/vivid-load", [])) ?? "?")")
            }
        }
        eventually("both vivid devices are discoverable") { !ids.contains { AVCaptureDevice(uniqueID: $0) == nil } }
        let devices = try ids.map { try #require(AVCaptureDevice(uniqueID: $0)) }
        #expect(AVCaptureMultiCamSession.isMultiCamSupported)
        let discovery = AVCaptureDevice.DiscoverySession(deviceTypes: [.external], mediaType: .video, position: .unspecified)
        #expect(discovery.supportedMultiCamDeviceSets.contains(Set(devices)), "the two vivid cameras are a multi-cam set")
        let session = AVCaptureMultiCamSession()
        var rigs: [FrameCounter] = []
        session.beginConfiguration()
        for device in devices {
            try device.lockForConfiguration()
            device.activeFormat = try #require(Vivid.format(device, .nv12, 320, 180))
            device.unlockForConfiguration()
            let input = try AVCaptureDeviceInput(device: device)
            session.addInputWithNoConnections(input)
            let output = AVCaptureVideoDataOutput()
            let counter = FrameCounter()
            output.setSampleBufferDelegate(counter, queue: counter.queue)
            session.addOutputWithNoConnections(output)
            session.addConnection(AVCaptureConnection(inputPorts: input.ports, output: output))
            rigs.append(counter)
        }
        session.commitConfiguration()
        // The pixel-rate rule: each camera's size x fastest rate, over two 1080p60 streams;
        // vivid is a platform device, on no USB bus, so no bandwidth share adds to it.
        #expect(devices.allSatisfy { Vivid.camera($0).usbLink == nil })
        let rate = devices.reduce(0.0) { $0 + 320 * 180 / $1.activeVideoMinFrameDuration.seconds }
        #expect(abs(Double(session.hardwareCost) - rate / (2 * 1920 * 1080 * 60)) < 1e-6, "hardwareCost \(session.hardwareCost)")
        session.startRunning()
        eventually("both devices delivered 5 frames") { !rigs.contains { $0.count < 5 } }
        session.stopRunning()
        for (rig, id) in zip(rigs, ids) {
            #expect(rig.count >= 5, "\(id): \(rig.count) frames")
            #expect(rig.devices == [id])
        }
    }

    /// Every format, size and interval exactly as `v4l2-ctl --list-formats-ext` lists them.
    @Test func formatsMatchV4L2Ctl() throws {
        let device = try #require(Vivid.device())
        let camera = Vivid.camera(device)
        let listing = try Vivid.run("/usr/bin/v4l2-ctl", ["-d", camera.path, "--list-formats-ext"])
        var listed: [(fourCC: String, width: Int, height: Int, fps: [String])] = []
        var allFourCCs: [String] = []
        var current = ""
        for line in listing.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("["), let open = line.firstIndex(of: "'") {
                let rest = line[line.index(after: open)...]
                current = String(rest[..<rest.firstIndex(of: "'")!])
                allFourCCs.append(current)
            } else if line.hasPrefix("Size: Discrete ") {
                let size = line.dropFirst("Size: Discrete ".count).split(separator: "x").map { Int($0)! }
                listed.append((current, size[0], size[1], []))
            } else if line.hasPrefix("Interval: Discrete "), let open = line.lastIndex(of: "(") {
                listed[listed.count - 1].fps.append(String(line[line.index(after: open)...].prefix { $0 != " " }))
            }
        }
        let node = try V4L2Node(path: camera.path)
        let ours = V4L2FormatEnumerator.allFourCCs(of: node).map { V4L2PixelCode(rawValue: $0)?.name ?? fourCCName($0) }
        #expect(ours.count == allFourCCs.count)
        let wanted = listed.filter { entry in Self.ourCodes.contains { $0.name == entry.fourCC } }
        #expect(wanted.count == camera.modes.count)
        for (entry, mode) in zip(wanted, camera.modes) {
            #expect(entry.fourCC == mode.code.name && entry.width == mode.width && entry.height == mode.height)
            guard case .discrete(let intervals) = mode.intervals else {
                Issue.record("vivid lists discrete intervals")
                continue
            }
            #expect(entry.fps == intervals.map { String(format: "%.3f", $0.rate) }, "\(entry.fourCC) \(entry.width)x\(entry.height)")
            let format = device.formats[camera.modes.firstIndex(of: mode)!]
            #expect(format.videoSupportedFrameRateRanges.map(\.maxFrameRate).sorted() == intervals.map(\.rate).sorted())
        }
        Vivid.log("\(allFourCCs.count) formats listed by v4l2-ctl; \(camera.modes.count) modes of \(Self.ourCodes.count) formats streamable")
    }

    /// vivid's default pattern is 75% colour bars: white, yellow, cyan, green, magenta, red,
    /// blue, black. R'G'B' 191 for the lit channels.
    static let bars: [(r: Double, g: Double, b: Double)] = [
        (1, 1, 1), (1, 1, 0), (0, 1, 1), (0, 1, 0), (1, 0, 1), (1, 0, 0), (0, 0, 1), (0, 0, 0),
    ]

    static func expectBars(_ buffer: CVPixelBuffer, label: String, mirrored: Bool = false) {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        let y = height - 6  // below vivid's text overlay, which covers most of a 320x180 frame
        for (index, bar) in bars.enumerated() {
            let x = width * (2 * (mirrored ? 7 - index : index) + 1) / 16
            let luma = 0.299 * bar.r + 0.587 * bar.g + 0.114 * bar.b
            switch buffer.format {
            case .bgra:
                let row = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self) + y * CVPixelBufferGetBytesPerRow(buffer)
                let (b, g, r) = (Int(row[4 * x]), Int(row[4 * x + 1]), Int(row[4 * x + 2]))
                let expected = (Int(bar.b * 191), Int(bar.g * 191), Int(bar.r * 191))
                #expect(abs(b - expected.0) <= 10 && abs(g - expected.1) <= 10 && abs(r - expected.2) <= 10, "\(label) bar \(index): BGR \(b),\(g),\(r)")
            default:
                let row = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!.assumingMemoryBound(to: UInt8.self) + y * CVPixelBufferGetBytesPerRowOfPlane(buffer, 0)
                let expected = buffer.format.isFullRange ? 255 * 0.75 * luma : 16 + 219 * 0.75 * luma
                #expect(abs(Double(row[x]) - expected) <= 6, "\(label) bar \(index): Y' \(row[x]), expected \(Int(expected))")
            }
        }
    }

    /// Each pixel format vivid offers, at two sizes, into each of our pixel formats.
    @Test(arguments: ourCodes)
    func streamsAndConvertsTheColourBars(code: V4L2PixelCode) throws {
        let device = try #require(Vivid.device())
        for (width, height) in [(320, 180), (1280, 720)] {
            let format = try #require(Vivid.format(device, code, width, height))
            for output in Self.outputs {
                let rig = try VividRig(device: device, format: format, pixelFormat: output.rawValue)
                rig.session.startRunning()
                let count = rig.waitForFrames(2)
                rig.session.stopRunning()
                let label = "\(code.name) \(width)x\(height) -> \(output.fourCC)"
                #expect(count >= 2, "\(label): \(count) frames")
                guard let frame = rig.buffers.last else { continue }
                #expect(frame.format == output && frame.width == width && frame.height == height, "\(label)")
                Self.expectBars(frame, label: label)
            }
        }
    }

    /// NV12 into '420v' and YU12 into 'y420' hand out the driver's own buffers.
    @Test func matchingFormatsAreNotCopied() throws {
        let device = try #require(Vivid.device())
        let camera = Vivid.camera(device)
        for (code, output) in [(V4L2PixelCode.nv12, PixelFormat.yuv420BiPlanarVideoRange), (.yu12, .yuv420PlanarVideoRange), (.yuyv, .yuv420BiPlanarVideoRange)] {
            let rig = try VividRig(device: device, format: try #require(Vivid.format(device, code, 640, 360)), pixelFormat: output.rawValue)
            rig.session.startRunning()
            rig.waitForFrames(3)
            let zeroCopy = camera.isStreamingWithoutCopy
            let frame = try #require(rig.buffers.first)
            rig.session.stopRunning()
            // A wrapped buffer's memory is the driver's mapping, not an allocation of ours.
            #expect(zeroCopy == (code != .yuyv), "\(code.name) -> \(output.fourCC)")
            #expect(frame.isWrapping == (code != .yuyv))
            if code != .yuyv { Self.expectBars(frame, label: "\(code.name) zero-copy") }
        }
    }

    @Test(arguments: [Int32(30), 10])
    func frameRateIsHonoured(rate: Int32) throws {
        let device = try #require(Vivid.device())
        let rig = try VividRig(device: device, format: try #require(Vivid.format(device, .yuyv, 320, 180)), pixelFormat: PixelFormat.yuv420BiPlanarVideoRange.rawValue, frameRate: rate)
        rig.session.startRunning()
        let frames = Int(rate) + 1
        rig.waitForFrames(frames, timeout: 30)
        rig.session.stopRunning()
        let taken = Array(rig.metadata.prefix(frames))
        try #require(taken.count == frames)
        // Per step of the driver's sequence: a frame the driver skipped (a busy machine makes
        // vivid skip some, and says so in the sequence) is no longer interval.
        let steps = Double(taken.last!.sequence - taken.first!.sequence)
        let mean = (taken.last!.presentationTime.seconds - taken.first!.presentationTime.seconds) / steps
        Vivid.log("\(rate) fps asked: mean interval \(String(format: "%.2f", mean * 1000)) ms over \(Int(steps)) sequence steps, \(frames - 1) intervals delivered")
        #expect(abs(mean * Double(rate) - 1) < 0.05)
        #expect(rig.metadata.first?.frameDuration == CMTime(value: 1, timescale: rate))
    }

    @Test func controlsRoundTrip() throws {
        let device = try #require(Vivid.device())
        let names = Set(device.linuxControls.map(\.name))
        #expect(names.isSuperset(of: ["brightness", "contrast", "saturation", "hue", "gain_automatic", "gain", "horizontal_flip"]))
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        for (name, value) in [("brightness", Int64(200)), ("contrast", 90), ("saturation", 40), ("hue", -20), ("gain_automatic", 0), ("gain", 50)] {
            #expect(try device.setLinuxControl(name, to: value) == value, "\(name)")
            #expect(try device.linuxControlValue(name) == value, "\(name)")
        }
        #expect(throws: AVCaptureDevice.LinuxControlError.outOfRange(name: "brightness", value: 300, range: 0...255)) {
            try device.setLinuxControl("brightness", to: 300)
        }
        // Brightness reaches the pixels: the black bar lifts.
        let rig = try VividRig(device: device, format: try #require(Vivid.format(device, .yuyv, 320, 180)), pixelFormat: PixelFormat.bgra.rawValue)
        rig.session.startRunning()
        rig.waitForFrames(2)
        rig.session.stopRunning()
        let frame = try #require(rig.buffers.last)
        CVPixelBufferLockBaseAddress(frame, .readOnly)
        let row = CVPixelBufferGetBaseAddress(frame)!.assumingMemoryBound(to: UInt8.self) + 174 * CVPixelBufferGetBytesPerRow(frame)
        let blackBar = Int(row[4 * 300 + 1])
        CVPixelBufferUnlockBaseAddress(frame, .readOnly)
        #expect(blackBar > 20, "black bar green at brightness 200: \(blackBar)")
        for name in ["brightness", "contrast", "saturation", "hue", "gain_automatic"] {
            let control = device.linuxControls.first { $0.name == name }!
            try device.setLinuxControl(name, to: control.defaultValue)
        }
    }

    /// vivid's "Percentage of Dropped Buffers": every frame the driver skips is one
    /// Discontinuity drop, and the drops equal the gaps in the sequence numbers.
    @Test func droppedBuffersAreReportedOneEach() throws {
        let device = try #require(Vivid.device())
        try Vivid.set(device, "percentage_of_dropped_buffers", 30)
        defer { try? Vivid.set(device, "percentage_of_dropped_buffers", 0) }
        Vivid.log("injected: percentage_of_dropped_buffers=30")
        let rig = try VividRig(device: device, format: try #require(Vivid.format(device, .yuyv, 320, 180)), pixelFormat: PixelFormat.yuv420BiPlanarVideoRange.rawValue, frameRate: 30)
        rig.session.startRunning()
        rig.waitForFrames(40, timeout: 30)
        rig.session.stopRunning()
        let sequences = rig.metadata.map(\.sequence)
        let discontinuities = rig.drops.filter { $0 == kCMSampleBufferDroppedFrameReason_Discontinuity }.count
        let late = rig.drops.count - discontinuities
        let gaps = Int(sequences.last! + 1) - sequences.count - late
        Vivid.log("delivered \(sequences.count) frames up to sequence \(sequences.last!), \(discontinuities) Discontinuity drops, \(late) other drops")
        #expect(discontinuities > 0)
        #expect(discontinuities == gaps)
    }

    @Test func corruptBufferIsDroppedNotShown() throws {
        let device = try #require(Vivid.device())
        let rig = try VividRig(device: device, format: try #require(Vivid.format(device, .yuyv, 320, 180)), pixelFormat: PixelFormat.yuv420BiPlanarVideoRange.rawValue, frameRate: 30)
        rig.session.startRunning()
        rig.waitForFrames(3)
        try Vivid.set(device, "inject_v4l2_buf_flag_error")
        Vivid.log("injected: inject_v4l2_buf_flag_error")
        rig.waitForFrames(15)
        rig.session.stopRunning()
        #expect(rig.drops.contains(kCMSampleBufferDroppedFrameReason_Discontinuity))
        #expect(rig.session.isRunning == false)
    }

    /// Start Streaming and Queue Setup errors fail the start with a runtime error; the
    /// session does not run and nothing crashes. The next start works.
    @Test(arguments: ["inject_vidioc_streamon_error", "inject_vidioc_reqbufs_error"])
    func startFailuresAreRuntimeErrors(control: String) throws {
        let device = try #require(Vivid.device())
        let rig = try VividRig(device: device, format: try #require(Vivid.format(device, .yuyv, 320, 180)), pixelFormat: PixelFormat.yuv420BiPlanarVideoRange.rawValue)
        try Vivid.set(device, control)
        Vivid.log("injected: \(control)")
        let note = waitForNotification(AVCaptureSession.runtimeErrorNotification, object: rig.session) { rig.session.startRunning() }
        #expect(note != nil)
        #expect(rig.session.isRunning == false)
        let code = (note?.userInfo?[AVCaptureSessionErrorKey] as? NSError)?.code
        #expect(code == AVError.Code.unknown.rawValue)
        rig.session.startRunning()
        #expect(rig.waitForFrames(2) >= 2)
        rig.session.stopRunning()
    }

    @Test func fatalStreamingErrorMidStreamIsARuntimeError() throws {
        let device = try #require(Vivid.device())
        let rig = try VividRig(device: device, format: try #require(Vivid.format(device, .yuyv, 320, 180)), pixelFormat: PixelFormat.bgra.rawValue, frameRate: 30)
        rig.session.startRunning()
        rig.waitForFrames(3)
        let note = waitForNotification(AVCaptureSession.runtimeErrorNotification, object: rig.session) {
            try? Vivid.set(device, "inject_fatal_streaming_error")
        }
        Vivid.log("injected: inject_fatal_streaming_error")
        #expect(note != nil)
        // Frames delivered before the fault are intact.
        Self.expectBars(try #require(rig.buffers.first), label: "before the fault")
        rig.session.stopRunning()
        #expect(device.isConnected)
    }

    @Test func busyDeviceThrowsInUse() throws {
        let device = try #require(Vivid.device())
        // Another "application": a file handle that owns the buffer queue.
        let other = try V4L2Node(path: Vivid.camera(device).path)
        let buffers = try V4L2MappedBuffers(node: other, count: 2)
        #expect(buffers.count >= 2)
        do {
            _ = try AVCaptureDeviceInput(device: device)
            Issue.record("the input must not open a busy device")
        } catch let error as AVError {
            #expect(error.code == .deviceInUseByAnotherApplication)
        }
    }

    /// A mirrored connection on a device with horizontal_flip: the driver flips, the frames
    /// still go out without a copy, and the bars run the other way.
    @Test func mirroringIsTheDriversHorizontalFlip() throws {
        let device = try #require(Vivid.device())
        let rig = try VividRig(device: device, format: try #require(Vivid.format(device, .nv12, 640, 360)), pixelFormat: PixelFormat.yuv420BiPlanarVideoRange.rawValue)
        let connection = try #require(rig.output.connection(with: .video))
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        rig.session.startRunning()
        rig.waitForFrames(3)
        let flip = try device.linuxControlValue("horizontal_flip")
        let zeroCopy = Vivid.camera(device).isStreamingWithoutCopy
        rig.session.stopRunning()
        #expect(flip == 1)
        #expect(zeroCopy)
        let frame = try #require(rig.buffers.last)
        #expect(frame.isWrapping)
        Self.expectBars(frame, label: "mirrored by the driver", mirrored: true)
        let allFlipped = rig.metadata.allSatisfy { $0.isMirroredByDevice }
        #expect(allFlipped)
    }

    /// A preview layer on the real driver: the colour bars, scaled into the layer's bounds.
    @Test func previewLayerShowsTheBars() throws {
        let device = try #require(Vivid.device())
        let rig = try VividRig(device: device, format: try #require(Vivid.format(device, .nv12, 640, 360)), pixelFormat: PixelFormat.yuv420BiPlanarVideoRange.rawValue)
        let layer = AVCaptureVideoPreviewLayer(session: rig.session)
        layer.frame = CGRect(x: 0, y: 0, width: 320, height: 180)
        rig.session.startRunning()
        eventually("the layer rendered 3 pictures") { layer.renderedFrameCount >= 3 }
        rig.session.stopRunning()
        let picture = try #require(layer.contents as? CVPixelBuffer)
        #expect(picture.width == 320 && picture.height == 180 && picture.format == .bgra)
        Self.expectBars(picture, label: "preview")
    }

    /// The completion-handler rule on a real driver: the handler gets the timestamp of the
    /// first frame dequeued after the control write, and that frame says it carries it.
    @Test func completionHandlerGetsTheFirstFrameAfterTheWrite() throws {
        let device = try #require(Vivid.device())
        let rig = try VividRig(device: device, format: try #require(Vivid.format(device, .yuyv, 320, 180)), pixelFormat: PixelFormat.yuv420BiPlanarVideoRange.rawValue, frameRate: 30)
        rig.session.startRunning()
        rig.waitForFrames(3)
        let stamped = Mutex<CMTime?>(nil)
        try device.lockForConfiguration()
        // vivid has no focus motor: locking at the current position is what it supports.
        device.setFocusModeLocked(lensPosition: AVCaptureDevice.currentLensPosition) { time in stamped.withLock { $0 = time } }
        device.unlockForConfiguration()
        eventually("the completion handler was called", within: .seconds(10)) { stamped.withLock { $0 != nil } }
        rig.waitForFrames(rig.metadata.count + 2)
        rig.session.stopRunning()
        let time = try #require(stamped.withLock { $0 })
        let carrier = try #require(rig.metadata.first { $0.presentationTime == time })
        let before = rig.metadata.filter { $0.presentationTime < time }
        #expect(carrier.appliedRequest > 0)
        #expect(before.allSatisfy { $0.appliedRequest < carrier.appliedRequest })
        Vivid.log("focus lock handler: frame \(carrier.sequence) at \(time.seconds) s carries request \(carrier.appliedRequest)")
    }

    /// A new frame rate or format while running restarts the driver's stream.
    @Test func changesWhileRunningTakeEffect() throws {
        let device = try #require(Vivid.device())
        let rig = try VividRig(device: device, format: try #require(Vivid.format(device, .yuyv, 320, 180)), pixelFormat: PixelFormat.yuv420BiPlanarVideoRange.rawValue, frameRate: 30)
        rig.session.startRunning()
        rig.waitForFrames(3)
        try device.lockForConfiguration()
        device.activeFormat = try #require(Vivid.format(device, .nv12, 640, 360))
        device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 10)
        device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 10)
        device.unlockForConfiguration()
        let before = rig.metadata.count
        rig.waitForFrames(before + 6)
        rig.session.stopRunning()
        let after = rig.metadata.suffix(4)
        #expect(after.allSatisfy { $0.width == 640 && $0.height == 360 && $0.frameDuration == CMTime(value: 1, timescale: 10) })
        // Per step of the driver's sequence (frames the driver skipped leave steps, not intervals).
        let steps = Double(after.last!.sequence - after.first!.sequence)
        #expect(abs((after.last!.presentationTime.seconds - after.first!.presentationTime.seconds) / steps - 0.1) < 0.01)
    }

    /// vivid has no exposure, white-balance, focus, zoom or torch controls: the API says unsupported, as Apple's
    /// does for a camera without them, and raises when asked anyway.
    @Test func missingControlsAreUnsupported() async throws {
        let device = try #require(Vivid.device())
        #expect(!device.isExposureModeSupported(.custom))
        #expect(!device.isExposureModeSupported(.continuousAutoExposure))
        #expect(!device.isWhiteBalanceModeSupported(.locked))
        #expect(!device.isLowLightBoostSupported)
        #expect(!device.isFocusModeSupported(.autoFocus) && device.isFocusModeSupported(.locked))
        #expect(device.activeFormat.autoFocusSystem == .none)
        #expect(!device.hasTorch && !device.isTorchModeSupported(.on))
        #expect(device.activeFormat.videoMaxZoomFactor == 1)
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let device = Vivid.device()!
            try? device.lockForConfiguration()
            device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 100), iso: 100, completionHandler: nil)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("*** Terminating app due to uncaught exception 'NSInvalidArgumentException'"))
    }

    /// The command-line tool on a real device: listing, formats, capture, a bad device.
    @Test func commandLineToolCapturesFromVivid() throws {
        let tool = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("capture").path
        let devices = try Vivid.run(tool, ["devices"])
        #expect(devices.contains("v4l2:platform:vivid-000") && devices.contains("External"))
        let formats = try Vivid.run(tool, ["formats", "v4l2:platform:vivid-000"])
        #expect(formats.contains("640x360") && formats.contains("yuvs") && formats.contains("12.5"))
        let output = try Vivid.run(tool, ["frames", "--device", "v4l2:platform:vivid-000", "--size", "640x360", "--fps", "25", "--count", "10", "-o", "/tmp/vivid.y4m"])
        #expect(output.contains("wrote 10 frames (640x360"), "\(output)")
        let size = (try? FileManager.default.attributesOfItem(atPath: "/tmp/vivid.y4m")[.size] as? Int) ?? 0
        #expect(size > 10 * 640 * 360 * 3 / 2)
        // Flags for controls vivid lacks: a clear message and exit 2, never a crash.
        for (flags, expected) in [
            (["--exposure-mode", "custom", "--shutter", "1/100"], "has no exposure control"), (["--bias", "1"], "has no exposure control"),
            (["--wb", "5000"], "has no white-balance control"), (["--torch", "on"], "has no torch"), (["--focus", "0.5"], "fixed-focus"),
            (["--zoom", "2"], "zoom range 1...1"),
        ] {
            let text = try Vivid.run("/bin/sh", ["-c", "\(tool) frames --device v4l2:platform:vivid-000 --count 1 \(flags.joined(separator: " ")) -o /tmp/x.y4m; echo status=$?"])
            #expect(text.contains(expected) && text.contains("status=2"), "\(flags): \(text)")
        }
        let preview = try Vivid.run(tool, ["preview", "--device", "v4l2:platform:vivid-000", "--columns", "40", "--rows", "12", "--frames", "2"])
        #expect(preview.contains("40x22  picture 2") && preview.contains("\u{1B}[38;2;"), "\(preview.suffix(200))")
        let bad = try Vivid.run(tool, ["frames", "--device", "v4l2:none", "-o", "/tmp/x.y4m"])
        #expect(bad.contains("unknown device 'v4l2:none'"))
    }

    /// Where udev names the camera under /dev/v4l/by-id (vendor, model, serial), that name is
    /// the unique ID, so the camera keeps it on any port. (The VM has no udev: the link is
    /// made by hand, in a child process, before the device list is first read.)
    @Test func udevByIDNameIsTheUniqueID() async {
        await #expect(processExitsWith: .success) {
            let name = "usb-OpenCapture_Test_Camera_0001-video-index0"
            guard mkdir("/dev/v4l", 0o755) == 0 || errno == EEXIST, mkdir("/dev/v4l/by-id", 0o755) == 0 || errno == EEXIST,
                symlink("../../video0", "/dev/v4l/by-id/\(name)") == 0 || errno == EEXIST
            else { exit(3) }
            defer { unlink("/dev/v4l/by-id/\(name)") }
            guard let device = AVCaptureDevice(uniqueID: "v4l2:\(name)"), device.deviceType == .external else { exit(4) }
        }
    }

    /// A user outside the video group: .denied, and a message saying how to get access.
    @Test func permissionDeniedSaysHowToGetAccess() async {
        await #expect(processExitsWith: .success) {
            // Drop root: devtmpfs nodes are root-only (0600), as on a system where the
            // user is not in the video group.
            guard setgid(65534) == 0, setuid(65534) == 0 else { exit(3) }
            guard AVCaptureDevice.authorizationStatus(for: .video) == .denied else { exit(4) }
            guard let hint = AVCaptureDevice.accessHint, hint.contains("video"), hint.contains("/dev/video0") else { exit(5) }
            print("vivid-test: as nobody: \(hint)")
            // The simulated cameras still work.
            guard (try? AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!)) != nil else { exit(6) }
        }
    }

    /// Last, because the old device object stays gone afterwards (vivid is reloaded at the
    /// end, and the new device is a new object). vivid's Disconnect while
    /// streaming: a runtime error with deviceWasDisconnected, the
    /// device reports itself gone, frames already delivered stay readable.
    @Test func disconnectWhileStreaming() throws {
        do {
            let device = try #require(Vivid.device())
            let rig = try VividRig(device: device, format: try #require(Vivid.format(device, .nv12, 640, 360)), pixelFormat: PixelFormat.yuv420BiPlanarVideoRange.rawValue, frameRate: 25)
            rig.session.startRunning()
            rig.waitForFrames(3)
            var runtime: Notification?
            let gone = waitForNotification(AVCaptureDevice.wasDisconnectedNotification) {
                runtime = waitForNotification(AVCaptureSession.runtimeErrorNotification, object: rig.session) {
                    try? Vivid.set(device, "disconnect")
                }
            }
            Vivid.log("injected: disconnect")
            let code = (runtime?.userInfo?[AVCaptureSessionErrorKey] as? NSError)?.code
            #expect(code == AVError.Code.deviceWasDisconnected.rawValue)
            #expect(gone != nil)
            #expect(!device.isConnected)
            let kept = try #require(rig.buffers.first)
            Self.expectBars(kept, label: "kept across the disconnect")  // wrapped mapping still valid
            rig.session.stopRunning()
            #expect(throws: AVError.self) { try AVCaptureDeviceInput(device: device) }
        }
        // Fresh vivid for the suites that run after this one (the photo suite), once the
        // session and the frames it kept (mapped driver buffers) are gone: vivid cannot
        // unload while they hold it.
        #expect(Vivid.reload())
    }
}

private func fourCCName(_ code: UInt32) -> String {
    String(decoding: [0, 8, 16, 24].map { UInt8((code >> UInt32($0)) & 0xFF) }, as: UTF8.self)
}
